/** Input file formats: traces, game tables, pipeline definitions, and format detection. */
export { FormatError } from './format-error.ts';
export { parseTrace, parseCase, parseCaseList, traceFromDocument, TRACE_FORMAT, TRACE_VERSION } from './trace.ts';
export type { TraceFile, TracePipeline } from './trace.ts';
export { serializeTrace } from './serialize-trace.ts';
export { parseGameFile, parseGame, gameFileFromDocument, coalitionLabel, GAME_FORMAT, GAME_VERSION, MAX_TABLE_PLAYERS } from './game.ts';
export type { GameFile, TableGame } from './game.ts';
export { parseInputFile, describeReadableFormats, IMPORTERS } from './detect.ts';
export type { ImportedInput, Importer } from './importer.ts';
