import { FormatError } from '../../formats/format-error.ts';
import { exportSessionFile, parseSessionFile } from '../session-file.ts';
import { sampleContrast } from './sample-contrast.ts';
import { session } from './sample-session.ts';

/** The problem reading a session file whose contrast (the sample's) was edited, as "path: message"; 'accepted' when it is read. */
export function contrastProblem(edit: (contrast: Record<string, any>) => void): string {
  const file = JSON.parse(exportSessionFile(session({ contrast: sampleContrast() })));
  edit(file.contrast);
  try {
    parseSessionFile(JSON.stringify(file));
  } catch (e) {
    if (e instanceof FormatError) return e.message;
    throw e;
  }
  return 'accepted';
}
