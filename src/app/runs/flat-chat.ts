/**
 * Some frameworks (agno, CrewAI through AgentOps) record a model call's input as one string with
 * the messages flattened into it, each line block led by its role: `developer: ...\nuser: ...\n
 * tool: ...`. This splits such a text back into messages, for the chat view. A text is split only
 * when it starts with a role label and every split is at the start of a line, so prose that
 * mentions "user:" mid-sentence stays whole.
 */
import type { ChatMessage } from '../../runs/index.ts';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'model', 'human', 'ai', 'function']);
const LABEL = /^(system|developer|user|assistant|tool|model|human|ai|function):[ \t]?/i;

/** The messages of a flattened text, or null when the text is not one (it does not start with a role label). */
export function splitFlattenedChat(text: string): ChatMessage[] | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (!LABEL.test(lines[0].trimStart())) return null;
  const out: ChatMessage[] = [];
  for (const line of lines) {
    const label = LABEL.exec(line);
    if (label && ROLES.has(label[1].toLowerCase())) {
      out.push({ role: label[1].toLowerCase(), text: line.slice(label[0].length) });
    } else if (out.length === 0) {
      out.push({ role: LABEL.exec(line.trimStart())![1].toLowerCase(), text: line.trimStart().replace(LABEL, '') });
    } else {
      out[out.length - 1].text += `\n${line}`;
    }
  }
  return out.map((m) => ({ ...m, text: m.text.trim() }));
}

/** The chat's messages with flattened inputs split (a message that makes or answers tool calls is kept as it is). */
export function splitFlattenedMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.flatMap((m) => {
    if (m.toolCalls?.length || m.toolCallId) return [m];
    const parts = splitFlattenedChat(m.text);
    return parts && parts.length > 1 ? parts : [m];
  });
}
