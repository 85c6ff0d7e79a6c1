// The command's terminal escaping is the one of src/engine/safe-text.ts (docs/security.md, "Terminal output").
export { printable, printableLines, safeJsonText } from '../engine/safe-text.ts';
