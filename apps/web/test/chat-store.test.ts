import type { Conversation } from '@atelier/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import { useChatStore } from '../src/features/chat/chat-store';
import { messageSources, messageText, toApiMessages, type ChatMessage } from '../src/features/chat/messages';
import { filterConversations } from '../src/features/chat/selectors';

const conv = (id: string, title = id): Conversation => ({
  id,
  title,
  chatbot_id: 'bot',
  chatbot_type: 'simple',
  updated_at: '2025-01-01T00:00:00.000Z',
  last_message_preview: '',
});
const history = (...texts: string[]): ChatMessage[] =>
  texts.map((text, i) => ({
    id: `h${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text }],
    state: 'done',
  }));
const s = () => useChatStore.getState();
const ids = () => s().conversations.map((c) => c.id);

beforeEach(() => {
  s().reset();
  s().setConversations([conv('a'), conv('b'), conv('c')]);
});

describe('chat store: conversations', () => {
  it('a finished conversation moves to the top, with its time and preview', () => {
    s().selectConversation('c');
    s().beginSend([{ type: 'text', text: 'hi' }]);
    s().textReceived('Hello ');
    s().textReceived('there');
    s().sendFinished('c', { now: new Date('2025-06-01T10:00:00Z') });
    expect(ids()).toEqual(['c', 'a', 'b']);
    expect(s().conversations[0]).toMatchObject({
      updated_at: '2025-06-01T10:00:00.000Z',
      last_message_preview: 'Hello there',
    });
    expect(s().loading).toBe(false);
    expect(s().messages.map((m) => m.state)).toEqual(['sent', 'done']);
  });

  it('creating a conversation puts it first and makes it active', () => {
    s().startDraft('bot');
    s().conversationCreated(conv('new'));
    expect(ids()).toEqual(['new', 'a', 'b', 'c']);
    expect(s().activeId).toBe('new');
    expect(s().draftAssistantId).toBeNull();
  });

  it('deleting the active conversation activates the first remaining one', () => {
    s().selectConversation('a');
    s().historyLoaded('a', history('q', 'r'));
    expect(s().conversationRemoved('a')).toBe('b');
    expect(s().activeId).toBe('b');
    expect(s().messages).toEqual([]);
    expect(ids()).toEqual(['b', 'c']);
  });

  it('deleting the last conversation leaves none active', () => {
    s().setConversations([conv('only')]);
    s().selectConversation('only');
    expect(s().conversationRemoved('only')).toBeNull();
    expect(s().activeId).toBeNull();
  });

  it('deleting another conversation keeps the active one and its messages', () => {
    s().selectConversation('b');
    s().historyLoaded('b', history('q'));
    expect(s().conversationRemoved('c')).toBe('b');
    expect(s().messages).toHaveLength(1);
  });

  it('switching clears messages, error, timeout and additional inputs', () => {
    s().setInputFields([
      { name: 'n', type: 'number', is_mandatory: false },
      { name: 's', type: 'string', is_mandatory: true },
    ]);
    s().selectConversation('a');
    s().historyLoaded('a', history('q', 'r'));
    s().setInputValue('n', '9');
    s().setInputValue('s', 'x');
    s().setInputErrors({ s: { key: 'chatPage.errors.required' } });
    s().setError({ key: 'chatPage.errors.fetchHistory' });
    s().sendFailed({ key: 'chatPage.errors.timeout', timeout: true });
    s().selectConversation('b');
    expect(s()).toMatchObject({
      activeId: 'b',
      messages: [],
      error: null,
      timeout: null,
      inputValues: { n: 1, s: '' },
      inputErrors: {},
    });
  });

  it('renames in place; searches titles and previews', () => {
    s().conversationRenamed('b', 'Holiday plans');
    expect(s().conversations[1]!.title).toBe('Holiday plans');
    const list = [conv('x', 'Budget'), { ...conv('y', 'Other'), last_message_preview: 'the budget for May' }];
    expect(filterConversations(list, ' BUDGET ').map((c) => c.id)).toEqual(['x', 'y']);
    expect(filterConversations(list, '')).toBe(list);
  });
});

describe('chat store: history and messages', () => {
  it('history replaces the messages only if it is non-empty or there are none yet', () => {
    s().selectConversation('a');
    s().historyLoaded('a', []);
    expect(s().messages).toEqual([]);
    s().historyLoaded('a', history('one', 'two'));
    expect(s().messages).toHaveLength(2);
    s().historyLoaded('a', []);
    expect(s().messages).toHaveLength(2);
    s().historyLoaded('a', history('three'));
    expect(s().messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'three' }]]);
    // A late answer for another conversation is ignored.
    s().historyLoaded('b', history('late'));
    expect(s().messages).toHaveLength(1);
  });

  it('sending adds the user message and an empty assistant placeholder, and sets loading', () => {
    s().selectConversation('a');
    s().sendFailed({ key: 'chatPage.errors.timeout', timeout: true });
    s().beginSend([{ type: 'text', text: 'hello' }]);
    expect(s().loading).toBe(true);
    expect(s().timeout).toBeNull();
    expect(s().messages.map((m) => [m.role, m.state, m.parts])).toEqual([
      ['user', 'sending', [{ type: 'text', text: 'hello' }]],
      ['assistant', 'thinking', []],
    ]);
    s().messageStarted('srv-1');
    expect(s().messages.map((m) => m.state)).toEqual(['sent', 'thinking']);
    expect(s().messages[1]!.id).toBe('srv-1');
  });

  it('sources arrive before the text and stay under the answer as it streams', () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'what is our refund policy?' }]);
    const source = {
      collection_id: 'c1',
      collection_name: 'Policies',
      document_id: 'd1',
      filename: 'refunds.pdf',
      chunk_index: 2,
      score: 0.83,
      excerpt: 'Refunds within 30 days',
    };
    s().sourcesReceived([source]);
    s().textReceived('Within ');
    s().textReceived('30 days.');
    const answer = s().messages[1]!;
    expect(messageText(answer)).toBe('Within 30 days.');
    expect(messageSources(answer)).toEqual([source]);
    // Sent back as history, the answer is its text only: sources are not client input.
    expect(toApiMessages([{ ...answer, state: 'done' }])).toEqual([
      { role: 'assistant', content: 'Within 30 days.' },
    ]);
  });

  it("a flow's final output replaces its streamed text and keeps the sources its knowledge nodes found", () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'refunds?' }]);
    const source = {
      collection_id: 'c1',
      collection_name: 'Policies',
      document_id: 'd1',
      filename: 'refunds.md',
      chunk_index: 0,
      score: 0.5,
      excerpt: 'Refunds within 45 days',
    };
    s().sourcesReceived([source]);
    s().textReceived('Within 4');
    s().outputReceived('Within 45 days.');
    const answer = s().messages[1]!;
    expect(answer.state).toBe('done');
    expect(messageText(answer)).toBe('Within 45 days.');
    expect(messageSources(answer)).toEqual([source]);
  });

  it('a timeout shows the notice, which new content clears', () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'q' }]);
    s().sendFailed({ key: 'chatPage.errors.processingTimeout', status: 504, timeout: true });
    expect(s().timeout?.key).toBe('chatPage.errors.processingTimeout');
    expect(s().messages[1]).toMatchObject({ state: 'timedOut', isError: true });
    s().textReceived('late text');
    expect(s().timeout).toBeNull();
  });

  it('a workflow output replaces the answer; none gives the empty-output message', () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'q' }]);
    s().progressChanged('LLM');
    expect(s().messages[1]!.progress).toBe('LLM');
    s().outputReceived('Final');
    expect(s().messages[1]).toMatchObject({ parts: [{ type: 'text', text: 'Final' }], state: 'done' });
    s().outputReceived(null);
    expect(s().messages[1]!.emptyOutput).toBe(true);
  });

  it('a stopped answer keeps its text, or disappears when it had none', () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'q' }]);
    s().sendFinished('a', { stopped: true });
    expect(s().messages.map((m) => m.role)).toEqual(['user']);
    s().beginSend([{ type: 'text', text: 'q2' }]);
    s().textReceived('part');
    s().sendFinished('a', { stopped: true });
    expect(s().messages.at(-1)).toMatchObject({ role: 'assistant', state: 'done' });
  });

  it('regenerate and retry ask the last question again, its answer replaced by a new placeholder', () => {
    s().selectConversation('a');
    s().historyLoaded('a', history('first', 'answer'));
    s().beginSend([{ type: 'text', text: 'again' }]);
    s().sendFailed({ key: 'chatPage.errors.timeout', timeout: true });
    s().sendFinished('a');
    expect(s().beginRegenerate()).toEqual([{ type: 'text', text: 'again' }]);
    expect(
      s()
        .messages.map((m) => [m.role, m.state])
        .slice(2),
    ).toEqual([
      ['user', 'sending'],
      ['assistant', 'thinking'],
    ]);
    expect(s().messages.map((m) => messageText(m))).toEqual(['first', 'answer', 'again', '']);
    expect(s().timeout).toBeNull();
    // Only the last question, once; nothing while an answer is on its way.
    expect(s().beginRegenerate()).toBeNull();
    s().textReceived('new answer');
    s().sendFinished('a');
    expect(s().messages.filter((m) => m.role === 'user')).toHaveLength(2);
    expect(toApiMessages(s().messages).map((m) => m.content)).toEqual([
      'first',
      'answer',
      'again',
      'new answer',
    ]);
  });

  it('stored ids and ratings are adopted once the server has them; a rating changes in place', () => {
    s().selectConversation('a');
    s().beginSend([{ type: 'text', text: 'q' }]);
    s().outputReceived('a');
    s().sendFinished('a');
    s().adoptStoredIds([
      { id: 'u1', role: 'user', parts: [], state: 'sent' },
      { id: 'a1', role: 'assistant', parts: [], state: 'done', feedback: 'up' },
    ]);
    expect(s().messages.map((m) => [m.id, m.feedback])).toEqual([
      ['u1', null],
      ['a1', 'up'],
    ]);
    s().feedbackChanged('a1', 'down');
    expect(s().messages[1]!.feedback).toBe('down');
  });

  it('clearing additional inputs resets the values to the type defaults', () => {
    s().setInputFields([
      { name: 'flag', type: 'boolean', is_mandatory: false },
      { name: 'list', type: 'string[]', is_mandatory: false },
    ]);
    s().setInputValue('flag', true);
    s().setInputValue('list', '[]');
    s().clearInputs();
    expect(s().inputValues).toEqual({ flag: false, list: '["item1", "item2"]' });
  });
});

describe('the messages sent to the simple chat', () => {
  it('a single text part as plain text, otherwise the parts list; failures and placeholders left out', () => {
    const messages: ChatMessage[] = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'hi' }], state: 'sent' },
      {
        id: '2',
        role: 'assistant',
        parts: [{ type: 'text', text: 'Error: boom' }],
        state: 'done',
        isError: true,
      },
      { id: '3', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }], state: 'done' },
      {
        id: '4',
        role: 'user',
        parts: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'data:image/png;base64,AA' },
        ],
        state: 'sending',
      },
      {
        id: '5',
        role: 'user',
        parts: [{ type: 'image', url: 'data:image/png;base64,BB' }],
        state: 'sending',
      },
      { id: '6', role: 'assistant', parts: [], state: 'thinking' },
    ];
    expect(toApiMessages(messages)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', url: 'data:image/png;base64,AA' },
        ],
      },
      { role: 'user', content: [{ type: 'image', url: 'data:image/png;base64,BB' }] },
    ]);
  });
});
