/** The HTML report: one pure renderer shared by the workbench export and `blame --html`. */
export { renderReport, DEFAULT_MAX_BYTES, type RenderReportOptions } from './renderReport.ts';
export { extractSessionFromReport, SESSION_BLOCK_ID } from '../session/extract-session.ts';
export { reportFileName } from './reportFileName.ts';
export type { FixConsidered } from './fixesConsidered.ts';
export type { ReportModelCost } from './sections/header.ts';
