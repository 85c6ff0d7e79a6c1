import { FormatError } from './format-error.ts';
import { childPath } from './json-path.ts';
import { expectFiniteNumber, mismatch, ownField, type JsonObject } from './validate.ts';

/**
 * Checks the `format` and `version` fields every agentblame file starts with. Checked before
 * anything else so that a file of another kind gets "wrong format" rather than a field error.
 */
export function expectFormatHeader(object: JsonObject, path: string, format: string, version: number): void {
  const formatPath = childPath(path, 'format');
  const givenFormat = ownField(object, 'format');
  if (givenFormat !== format) {
    throw new FormatError(formatPath, mismatch(JSON.stringify(format), givenFormat));
  }
  const versionPath = childPath(path, 'version');
  const givenVersion = expectFiniteNumber(ownField(object, 'version'), versionPath);
  if (givenVersion !== version) {
    throw new FormatError(versionPath, `unsupported version ${givenVersion} (this reads ${format} version ${version})`);
  }
}
