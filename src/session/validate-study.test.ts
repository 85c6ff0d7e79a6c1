import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { exportSessionFile, parseSessionFile } from './session-file.ts';
import { session } from './testing/sample-session.ts';
import { validateStudyMark } from './validate-study.ts';

const FINGERPRINT = 'a'.repeat(64);

describe('validateStudyMark: the batch stop', () => {
  it('keeps the batch stop as written, and reads a mark without it as off (absent)', () => {
    expect(validateStudyMark({ fingerprint: FINGERPRINT, batchBound: 'anytime', batchStop: true }, 'study')).toEqual({ fingerprint: FINGERPRINT, batchBound: 'anytime', batchStop: true });
    expect(validateStudyMark({ fingerprint: FINGERPRINT, batchStop: false }, 'study')).toEqual({ fingerprint: FINGERPRINT, batchStop: false });
    expect(validateStudyMark({ fingerprint: FINGERPRINT, batchBound: 'normal' }, 'study')).not.toHaveProperty('batchStop');
  });

  it('refuses a batch stop that is not true or false, naming its JSON path', () => {
    for (const bad of ['yes', 1, null, {}]) {
      let thrown: unknown;
      try {
        validateStudyMark({ fingerprint: FINGERPRINT, batchStop: bad }, 'study');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FormatError);
      expect((thrown as FormatError).path).toBe('study.batchStop');
    }
  });

  it('round-trips through a session file; a session file with a bad batch stop is refused at study.batchStop', () => {
    const original = session({ study: { fingerprint: FINGERPRINT, batchBound: 'anytime', batchStop: true } });
    expect(parseSessionFile(exportSessionFile(original)).study).toEqual({ fingerprint: FINGERPRINT, batchBound: 'anytime', batchStop: true });
    const file = JSON.parse(exportSessionFile(original));
    file.study.batchStop = 'true';
    expect(() => parseSessionFile(JSON.stringify(file))).toThrow(/study\.batchStop/);
  });
});

describe('validateStudyMark: the batch stop rule', () => {
  it('keeps the bandit rule, round-trips it through a session file, and refuses an unknown one at study.batchStopRule', () => {
    const mark = { fingerprint: FINGERPRINT, batchBound: 'anytime' as const, batchStop: true, batchStopRule: 'bandit' as const };
    expect(validateStudyMark(mark, 'study')).toEqual(mark);
    expect(parseSessionFile(exportSessionFile(session({ study: mark }))).study).toEqual(mark);
    const file = JSON.parse(exportSessionFile(session({ study: mark })));
    file.study.batchStopRule = 'greedy';
    let thrown: unknown;
    try {
      parseSessionFile(JSON.stringify(file));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FormatError);
    expect((thrown as FormatError).path).toBe('study.batchStopRule');
  });
});
