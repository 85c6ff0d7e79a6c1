/**
 * The regression game's demo (docs/ci.md): the support desk's earlier version (fixtures/) and a later
 * one built from it by changing two of its four steps. The retriever now ranks every document by
 * keyword score (an old policy that matches more words comes first, and another topic's document can
 * push the right one out); the writer now answers from the first document it gets (harmless with the
 * earlier retriever, which puts the topic's newest document first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export const SUPPORT_DESK_CASES_FILE = join(FIXTURES, 'support-desk.cases.json');

export function supportDeskBefore(): string {
  return readFileSync(join(FIXTURES, 'support-desk.pipeline.js'), 'utf8');
}

/** The later version: the retriever's and the writer's run replaced (each after its marker comment). */
export function supportDeskAfter(): string {
  const before = supportDeskBefore();
  const retriever = /(\/\/ RETRIEVER:[^\n]*\n\s*run: )[^\n]*\n/;
  const writer = /(\/\/ WRITER:[^\n]*\n\s*run: )\(\{ parse, retriever \}\) => \{[\s\S]*?\n {6}\},\n/;
  if (!retriever.test(before) || !writer.test(before)) throw new Error('support-desk fixture: a marker comment moved');
  return before
    .replace('// Support desk, the earlier version', '// Support desk, the later version')
    .replace(retriever, '$1({ parse }) => DOCUMENTS.filter((d) => score(d, parse.terms) > 0).sort((a, b) => score(b, parse.terms) - score(a, parse.terms) || b.year - a.year).slice(0, 2),\n')
    .replace(writer, '$1({ retriever }) => ({ answer: retriever.length > 0 ? retriever[0].answer : "I don\'t know" }),\n');
}
