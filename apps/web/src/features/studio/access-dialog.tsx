import type { Chatbot } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, UserMinus, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { LoadError, Loading } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { bulkTargets, runBulk } from './bulk';
import { chatbotUsersKey, grantAccess, revokeAccess, useChatbotUsers, useOrganizationUsers } from './queries';

/** Which users (role 'user') may chat with a chatbot: one by one, or all at once. */
export function AccessDialog({ chatbot, onClose }: { chatbot: Chatbot | null; onClose(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const users = useOrganizationUsers(chatbot !== null);
  const access = useChatbotUsers(chatbot?.id ?? null);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);

  const members = (users.data ?? []).filter((u) => u.user_role_id === 'user');
  const withAccess = new Set(access.data ?? []);
  const refresh = () => queryClient.invalidateQueries({ queryKey: chatbotUsersKey(chatbot?.id ?? '') });

  async function toggle(userId: string, grant: boolean) {
    if (!chatbot) return;
    setPending((p) => new Set(p).add(userId));
    try {
      await (grant ? grantAccess(chatbot.id, userId) : revokeAccess(chatbot.id, userId));
      toast.success(t(grant ? 'studio.access.granted' : 'studio.access.revoked'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await refresh();
    setPending((p) => new Set([...p].filter((u) => u !== userId)));
  }

  async function bulk(action: 'grant' | 'revoke') {
    if (!chatbot) return;
    const targets = bulkTargets(
      members.map((u) => u.id),
      withAccess,
      action,
    );
    setBulkBusy(true);
    const call = action === 'grant' ? grantAccess : revokeAccess;
    const result = await runBulk(targets, (userId) => call(chatbot.id, userId));
    const text = t('studio.access.summary', {
      succeeded: result.succeeded.length,
      failed: result.failed.length,
    });
    setSummary(text);
    if (result.failed.length > 0) toast.error(t('studio.access.bulkFailed'), text);
    else toast.success(t('studio.access.bulkDone'), text);
    await refresh();
    setBulkBusy(false);
  }

  const close = () => {
    setSummary(null);
    onClose();
  };
  const busy = bulkBusy || pending.size > 0;
  return (
    <Dialog open={chatbot !== null} onOpenChange={(o) => !o && close()}>
      <DialogContent closeLabel={t('common.close')}>
        <DialogHeader>
          <DialogTitle>{t('studio.access.title', { name: chatbot?.name })}</DialogTitle>
          <DialogDescription>{t('studio.access.description')}</DialogDescription>
        </DialogHeader>
        {users.isPending || access.isPending ? (
          <Loading />
        ) : users.isError || access.isError ? (
          <LoadError />
        ) : members.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
            {t('studio.access.noUsers')}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" variant="outline" disabled={busy} onClick={() => void bulk('grant')}>
                {bulkBusy ? <Loader2 className="animate-spin" /> : <UserPlus />} {t('studio.access.grantAll')}
              </Button>
              <Button size="sm" variant="outline" disabled={busy} onClick={() => void bulk('revoke')}>
                <UserMinus /> {t('studio.access.revokeAll')}
              </Button>
              <span className="ml-auto self-center text-xs text-muted-foreground">
                {t('studio.access.count', {
                  n: members.filter((u) => withAccess.has(u.id)).length,
                  total: members.length,
                })}
              </span>
            </div>
            <ul
              className="grid max-h-80 gap-1 overflow-y-auto rounded-lg border p-2"
              data-testid="access-list"
            >
              {members.map((user) => {
                const name = `${user.firstName} ${user.lastName}`.trim();
                return (
                  <li
                    key={user.id}
                    className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent/50"
                  >
                    <Checkbox
                      id={`${id}-${user.id}`}
                      checked={withAccess.has(user.id)}
                      disabled={bulkBusy || pending.has(user.id)}
                      onCheckedChange={(checked) => void toggle(user.id, checked === true)}
                    />
                    <Label
                      htmlFor={`${id}-${user.id}`}
                      className="grid min-w-0 flex-1 cursor-pointer gap-0.5"
                    >
                      <span className="truncate">{name || user.email}</span>
                      {name ? (
                        <span className="truncate text-xs font-normal text-muted-foreground">
                          {user.email}
                        </span>
                      ) : null}
                    </Label>
                  </li>
                );
              })}
            </ul>
          </>
        )}
        {summary ? (
          <p role="status" className="text-sm text-muted-foreground">
            {summary}
          </p>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
