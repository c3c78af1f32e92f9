import type { InputCustomField } from '@atelier/schemas';
import { RotateCcw, SendHorizontal, SlidersHorizontal, Square } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { chatErrorText } from '@/features/chat/errors';
import { additionalFields, turnInputs, turnSink, type ChatTurn } from './chat-turns';
import { ChatTurnView } from './chat-turn-view';
import { RunInputForm, useInputValues } from './input-form';
import { buildRunInputs, validateRunInputs, type InputErrors } from './input-values';
import { cancelRun, startTestRun, storeSink } from './run-client';
import { runFailure } from './run-errors';
import type { FlowDraft } from './run-modal';
import { useRunStore } from './run-store';

export interface ChatModalProps {
  chatbotId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  getDraft(): FlowDraft;
  inputFields: InputCustomField[];
}

let turnCounter = 0;
const nextId = () => `turn-${++turnCounter}`;

/**
 * Converses with the chatflow draft on the canvas: each message is a test run with the message as
 * `query`, the conversation so far as `history`, and the additional inputs. Node statuses follow on
 * the canvas through the run store.
 */
export function ChatModal({ chatbotId, open, onOpenChange, getDraft, inputFields }: ChatModalProps) {
  const { t } = useTranslation();
  const fields = useMemo(() => additionalFields(inputFields), [inputFields]);
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [message, setMessage] = useState('');
  const inputs = useInputValues(fields);
  const { values } = inputs;
  const [errors, setErrors] = useState<InputErrors>({});
  const [showInputs, setShowInputs] = useState(false);
  const [busy, setBusy] = useState(false);
  const runId = useRunStore((s) => s.runId);
  const end = useRef<HTMLDivElement>(null);
  const last = turns.at(-1);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns.length, last?.content.length]);

  async function send(event: FormEvent) {
    event.preventDefault();
    const query = message.trim();
    if (!query || busy) return;
    const problems = validateRunInputs(fields, values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      setShowInputs(true);
      return;
    }
    const earlier = turns;
    const answerId = nextId();
    setTurns([
      ...earlier,
      { id: nextId(), role: 'user', content: query, state: 'done' },
      { id: answerId, role: 'assistant', content: '', state: 'thinking' },
    ]);
    setMessage('');
    setBusy(true);
    const update = (patch: (turn: ChatTurn) => ChatTurn) =>
      setTurns((all) => all.map((turn) => (turn.id === answerId ? patch(turn) : turn)));
    try {
      const additional = await buildRunInputs(fields, values);
      const body = { inputs: turnInputs(query, earlier, additional), configuration: getDraft() };
      await startTestRun(chatbotId, body, turnSink(storeSink, update));
    } catch (error) {
      const failure = runFailure(error);
      if (failure) {
        if (!useRunStore.getState().runId) useRunStore.getState().reset();
        update((turn) => ({ ...turn, state: 'error', error: chatErrorText(t, failure), failure }));
      }
    } finally {
      // Following stopped before the end (another run took over): no turn stays thinking forever.
      update((turn) =>
        turn.state === 'streaming'
          ? { ...turn, state: 'done' }
          : turn.state === 'thinking'
            ? { ...turn, state: 'error', error: t('flowRuns.errors.lost') }
            : turn,
      );
      setBusy(false);
    }
  }

  function newConversation() {
    setTurns([]);
    setMessage('');
    inputs.reset();
    setErrors({});
    useRunStore.getState().reset();
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('flowRuns.close')} className="flex h-[85vh] max-w-2xl flex-col gap-3">
        <DialogHeader>
          <DialogTitle>{t('flowRuns.chatModal.title')}</DialogTitle>
          <DialogDescription>{t('flowRuns.chatModal.description')}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" variant="outline" onClick={newConversation} disabled={busy}>
            <RotateCcw /> {t('flowRuns.chatModal.newConversation')}
          </Button>
          {fields.length > 0 && (
            <Button
              type="button"
              size="sm"
              variant="ghost"
              aria-expanded={showInputs}
              onClick={() => setShowInputs(!showInputs)}
            >
              <SlidersHorizontal /> {t('flowRuns.chatModal.inputs')}
            </Button>
          )}
        </div>
        {showInputs && fields.length > 0 && (
          <div className="max-h-56 overflow-y-auto rounded-lg border p-3">
            <RunInputForm
              fields={fields}
              values={values}
              errors={errors}
              disabled={busy}
              onChange={inputs.set}
            />
          </div>
        )}
        <div className="min-h-0 flex-1 overflow-y-auto rounded-lg border bg-muted/20 p-3">
          {turns.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t('flowRuns.chatModal.empty')}</p>
          ) : (
            <ol aria-label={t('flowRuns.chatModal.messages')} className="grid gap-3">
              {turns.map((turn) => (
                <ChatTurnView key={turn.id} turn={turn} />
              ))}
            </ol>
          )}
          <div ref={end} />
        </div>
        <form onSubmit={send} className="flex items-end gap-2">
          <textarea
            aria-label={t('flowRuns.chatModal.message')}
            placeholder={t('flowRuns.chatModal.placeholder')}
            className="max-h-32 min-h-10 flex-1 resize-none rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            rows={1}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          {busy && runId ? (
            <Button
              type="button"
              variant="outline"
              onClick={() => void cancelRun(runId).catch(() => undefined)}
            >
              <Square /> {t('flowRuns.cancelRun')}
            </Button>
          ) : (
            <Button type="submit" disabled={busy || !message.trim()}>
              <SendHorizontal /> {t('flowRuns.chatModal.send')}
            </Button>
          )}
        </form>
      </DialogContent>
    </Dialog>
  );
}
