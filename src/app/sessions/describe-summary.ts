import type { SessionSummary } from '../../session/types.ts';

/** "1 failure analysed", "12 failures analysed (of 40 cases)". */
export function failuresLabel(summary: Pick<SessionSummary, 'failuresAnalysed' | 'casesAnalysed' | 'caseCount'>): string {
  const failures = `${summary.failuresAnalysed} ${summary.failuresAnalysed === 1 ? 'failure' : 'failures'} analysed`;
  if (summary.casesAnalysed >= summary.caseCount) return failures;
  return `${failures} (${summary.casesAnalysed} of ${summary.caseCount} cases done)`;
}

/** One formatter per locale: `toLocaleString` builds a new one on every call (about 0.1-1 ms each, per session listed). */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A short local date and time for the list; the full ISO time goes in the element's datetime. */
export function whenLabel(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const key = locale ?? '';
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    formatters.set(key, format);
  }
  return format.format(date);
}

const METHODS: Record<NonNullable<SessionSummary['method']>, string> = { exact: 'exact', mc: 'Monte Carlo', auto: 'auto method' };

/** "posterior · Monte Carlo · 200 cases": how the study was analysed and how big it is. */
export function studyLabel(summary: Pick<SessionSummary, 'mode' | 'method' | 'caseCount'>): string {
  const parts = [summary.mode, summary.method && METHODS[summary.method], `${summary.caseCount} ${summary.caseCount === 1 ? 'case' : 'cases'}`];
  return parts.filter((part) => part).join(' · ');
}
