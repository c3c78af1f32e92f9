import type { Chatbot } from '@atelier/schemas';
import { ImagePlus, SendHorizontal, Square, X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { send, stopStreaming } from './chat-actions';
import { useChatStore } from './chat-store';
import { chatErrorText, type ChatError } from './errors';
import { attachReadable, checkImages, MAX_IMAGES, type AttachedImage } from './image-upload';
import { acceptFor } from './input-fields';

/** The message box: Enter sends, Shift+Enter adds a line; images attach with previews; Stop aborts. */
export function Composer({
  assistants,
  allowImages,
}: {
  assistants: readonly Chatbot[];
  allowImages: boolean;
}) {
  const { t } = useTranslation();
  const loading = useChatStore((s) => s.loading);
  const [text, setText] = useState('');
  const [images, setImages] = useState<AttachedImage[]>([]);
  const [errors, setErrors] = useState<ChatError[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  async function submit() {
    if (loading || submitting) return;
    setSubmitting(true);
    const error = await send(text, allowImages ? images : [], assistants);
    setSubmitting(false);
    if (error) return setErrors([error]);
    setErrors([]);
    setText('');
    setImages([]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  async function onFiles(files: FileList | null) {
    const { accepted, errors: refused } = checkImages(Array.from(files ?? []), images.length, MAX_IMAGES);
    setErrors(refused);
    if (fileInput.current) fileInput.current.value = '';
    const { attached, errors: unreadable } = await attachReadable(accepted);
    if (unreadable.length > 0) setErrors([...refused, ...unreadable]);
    setImages((current) => [...current, ...attached].slice(0, MAX_IMAGES));
  }

  return (
    <div className="border-t bg-background px-3 py-3 sm:px-6">
      <form
        className="mx-auto grid w-full max-w-3xl gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {images.length > 0 && (
          <ul aria-label={t('chatPage.composer.attached')} className="flex flex-wrap gap-2">
            {images.map((image) => (
              <li key={image.id} className="relative">
                <img src={image.url} alt={image.name} className="size-16 rounded-md border object-cover" />
                <button
                  type="button"
                  onClick={() => setImages((current) => current.filter((i) => i.id !== image.id))}
                  aria-label={t('chatPage.composer.removeImage', { name: image.name })}
                  className="absolute -right-1.5 -top-1.5 rounded-full border bg-background p-0.5 shadow"
                >
                  <X className="size-3" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {errors.map((error, i) => (
          <p key={i} role="alert" className="text-sm text-destructive">
            {chatErrorText(t, error)}
          </p>
        ))}
        <div className="flex items-end gap-2 rounded-xl border bg-card p-2 shadow-sm focus-within:ring-2 focus-within:ring-ring">
          {allowImages && (
            <>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                accept={acceptFor('image[]')}
                onChange={(e) => void onFiles(e.target.files)}
                data-testid="image-input"
              />
              <Button
                type="button"
                size="icon"
                variant="ghost"
                onClick={() => fileInput.current?.click()}
                disabled={images.length >= MAX_IMAGES}
                aria-label={t('chatPage.composer.attach')}
                title={t('chatPage.composer.attach')}
              >
                <ImagePlus />
              </Button>
            </>
          )}
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            rows={1}
            aria-label={t('chatPage.composer.label')}
            placeholder={t('chatPage.composer.placeholder')}
            className="field-sizing-content max-h-48 min-h-9 flex-1 resize-none bg-transparent px-1 py-2 text-sm outline-none placeholder:text-muted-foreground"
          />
          {loading ? (
            <Button type="button" variant="outline" onClick={stopStreaming}>
              <Square /> {t('chatPage.composer.stop')}
            </Button>
          ) : (
            <Button type="submit" disabled={submitting}>
              <SendHorizontal /> {t('chatPage.composer.send')}
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
