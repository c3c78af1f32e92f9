import type { FlowChatbotType } from '@atelier/schemas/constants';
import { FLOW_TEMPLATES } from '@atelier/schemas';
import { LayoutTemplate } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/stores/toasts';
import { useEditorStore } from './editor-store';

/**
 * The template picker: the templates of the editor's own type (chatflow or workflow). It opens by itself
 * when a loaded configuration has no nodes (spec section 2); applying one replaces the nodes and edges
 * (one undo step), and the canvas then shows it at a readable zoom.
 */
export function TemplatePicker({
  open,
  onOpenChange,
  type,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  type: FlowChatbotType;
}) {
  const { t } = useTranslation();
  const apply = useEditorStore((s) => s.applyTemplate);
  const templates = FLOW_TEMPLATES.filter((template) => template.type === type);

  const choose = (id: string) => {
    try {
      apply(id);
      onOpenChange(false);
    } catch (error) {
      toast.error(t('flow.templates.failed'), error instanceof Error ? error.message : undefined);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-3xl"
        data-testid="template-picker"
        closeLabel={t('flow.inspector.close')}
      >
        <DialogHeader>
          <DialogTitle>{t('flow.templates.title')}</DialogTitle>
          <DialogDescription>{t('flow.templates.description')}</DialogDescription>
        </DialogHeader>
        <ul className="grid max-h-[60vh] gap-2 overflow-y-auto sm:grid-cols-2">
          {templates.map((template) => (
            <li key={template.id}>
              <button
                type="button"
                data-testid={`template-${template.id}`}
                onClick={() => choose(template.id)}
                className="flex h-full w-full flex-col gap-1.5 rounded-lg border p-3 text-left transition-colors hover:border-primary hover:bg-primary/5"
              >
                <span className="flex items-center gap-2 text-sm font-medium">
                  <LayoutTemplate className="size-4 text-primary" /> {t(template.name)}
                </span>
                <span className="text-xs text-muted-foreground">{t(template.description)}</span>
                <span className="text-[11px] text-muted-foreground">
                  {t('flow.templates.nodes', { count: template.configuration.nodes.length })}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
