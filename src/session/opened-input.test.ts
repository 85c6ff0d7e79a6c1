import { describe, expect, it } from 'vitest';
import { describeReadableFormats, IMPORTERS, parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import { readFixture } from '../formats/test-helpers.ts';
import { renderReport } from '../report/renderReport.ts';
import { OPENED_IMPORTERS, parseOpenedFile, sessionImporter } from './opened-input.ts';
import { exportSessionFile, importSessionText } from './session-file.ts';
import { session } from './testing/sample-session.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

const messageOf = (action: () => unknown): string => thrownBy(action, FormatError).message;

describe('parseOpenedFile: session files and reports through the importer list', () => {
  const stored = session();
  const file = exportSessionFile(stored);

  it('reads a session file and a report the way importSessionText does', () => {
    expect(parseOpenedFile(file, 'study.agentblame-session.json')).toEqual({ kind: 'session', session: importSessionText(file) });
    const html = renderReport(stored);
    expect(parseOpenedFile(html, 'study.html')).toEqual({ kind: 'session', session: importSessionText(html) });
  });

  it('finds a session file whose format is not its first field (sniffing alone missed it)', () => {
    const { format, ...rest } = JSON.parse(file) as Record<string, unknown>;
    const reordered = JSON.stringify({ ...rest, format });
    expect(sessionImporter.sniff(reordered)).toBe(false);
    expect(parseOpenedFile(reordered)).toEqual({ kind: 'session', session: importSessionText(file) });
  });

  it('keeps the messages of a damaged session file and of an HTML file that is no report', () => {
    const damaged = file.replace('"cases": [', '"cases": [7, ');
    expect(messageOf(() => parseOpenedFile(damaged))).toBe(messageOf(() => importSessionText(damaged)));
    const page = '<!doctype html><title>Not found</title>';
    expect(messageOf(() => parseOpenedFile(page))).toBe(messageOf(() => importSessionText(page)));
    expect(messageOf(() => parseOpenedFile(page))).toMatch(/holds no agentblame session/);
  });

  it('reads every other format as src/formats does, and names sessions among the formats it reads', () => {
    const trace = readFixture('refund-policy.trace.json');
    expect(parseOpenedFile(trace, 'refund-policy.trace.json')).toEqual(parseInputFile(trace, 'refund-policy.trace.json'));
    expect(OPENED_IMPORTERS).toEqual([sessionImporter, ...IMPORTERS]);
    expect(messageOf(() => parseOpenedFile('{ "hello": 1 }', 'notes.json'))).toBe(
      `format: missing: a JSON input names its format (${describeReadableFormats(OPENED_IMPORTERS)})`,
    );
    expect(describeReadableFormats(OPENED_IMPORTERS)).toBe(
      `this reads: agentblame-session (JSON) or a report exported by agentblame (HTML); ${describeReadableFormats(IMPORTERS).slice('this reads: '.length)}`,
    );
  });
});
