import { FormatError } from '../format-error.ts';
import type { Importer } from '../importer.ts';
import { stripByteOrderMark } from '../parse-json.ts';

const SCRIPT_NAME = /\.m?js$/i;
const EXPORT_DEFAULT = /\bexport\s+default\b/;

/**
 * Pipeline definitions (docs/formats.md, "Pipeline definitions"): JavaScript whose default export is the pipeline. Only the
 * shape of the file is checked here; the sandbox compiles it and reports errors by step.
 */
export const pipelineImporter: Importer = {
  label: 'pipeline definition (.js or .mjs with export default)',
  sniff(text, fileName) {
    if (fileName !== undefined && SCRIPT_NAME.test(fileName)) return true;
    const start = stripByteOrderMark(text).trimStart();
    // JSON never holds `export default` outside a string, but a trace can inside its pipeline source.
    return !start.startsWith('{') && !start.startsWith('[') && EXPORT_DEFAULT.test(start);
  },
  import(text) {
    const source = stripByteOrderMark(text);
    if (source.trim() === '') throw new FormatError('', 'the pipeline definition is empty');
    if (!EXPORT_DEFAULT.test(source)) {
      throw new FormatError(
        '',
        'no "export default" found: a pipeline definition exports its pipeline with export default { name, steps, metric }',
      );
    }
    return { kind: 'pipeline', source };
  },
};
