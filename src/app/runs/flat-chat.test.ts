import { describe, expect, it } from 'vitest';
import { splitFlattenedChat, splitFlattenedMessages } from './flat-chat.ts';

describe('a flattened chat split into messages', () => {
  it('splits agno\'s and CrewAI\'s one-string inputs at the role labels', () => {
    const text = 'developer: You are a weather agent.\nBe brief.\nuser: What is the weather in Paris?\nassistant: \ntool: {"temp": 21}\nUser: thanks';
    expect(splitFlattenedChat(text)).toEqual([
      { role: 'developer', text: 'You are a weather agent.\nBe brief.' },
      { role: 'user', text: 'What is the weather in Paris?' },
      { role: 'assistant', text: '' },
      { role: 'tool', text: '{"temp": 21}' },
      { role: 'user', text: 'thanks' },
    ]);
  });

  it('leaves prose alone: no label at the start, or a label only mid-line', () => {
    expect(splitFlattenedChat('Tell the user: it is sunny.')).toBeNull();
    expect(splitFlattenedChat('Summary\nuser: hi')).toBeNull();
    expect(splitFlattenedChat('user: say "assistant: no" please')).toEqual([{ role: 'user', text: 'say "assistant: no" please' }]);
    expect(splitFlattenedChat('username: bob')).toBeNull();
  });

  it('keeps hostile text as text, and does not invent roles', () => {
    const parts = splitFlattenedChat('user: <script>alert(1)</script>\n<img src=x onerror=alert(1)>\nconstructor: x\n__proto__: y');
    expect(parts).toEqual([{ role: 'user', text: '<script>alert(1)</script>\n<img src=x onerror=alert(1)>\nconstructor: x\n__proto__: y' }]);
  });

  it('splits only plain messages in a chat, and only when there is more than one inside', () => {
    const messages = [
      { role: 'user', text: 'system: be kind\nuser: hi' },
      { role: 'user', text: 'user: only one' },
      { role: 'assistant', text: 'user: x\nuser: y', toolCalls: [{ name: 'f', arguments: '{}' }] },
    ];
    expect(splitFlattenedMessages(messages)).toEqual([{ role: 'system', text: 'be kind' }, { role: 'user', text: 'hi' }, messages[1], messages[2]]);
  });
});
