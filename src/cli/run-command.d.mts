export function runCommand(run: () => Promise<number>): Promise<void>;
