// Runs the command's main() and sets the exit status, for both launchers: `npm run blame`
// (src/cli/blame.mjs) and the packed `agentblame` (src/cli/packed.ts). Plain JavaScript, so the
// launcher can use it before any TypeScript loader exists.

/** Awaits `run` (it returns the exit status); an exception is an internal error, exit status 3. */
export async function runCommand(run) {
  try {
    process.exitCode = await run();
  } catch (e) {
    // Escape control characters: the text may quote names from the user's files.
    const text = String(e && e.stack ? e.stack : e).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
    process.stderr.write(`blame: internal error: ${text}\n`);
    process.exitCode = 3;
  }
}
