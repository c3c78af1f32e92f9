import { type FieldOption, isCatalogKey, nodeDefinition } from '@atelier/schemas';
import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A node's name on screen. A catalog key (what new and template nodes carry) is translated; so is the
 * English name of its type, which flows saved before names were keys still hold; any other text is
 * the name a person gave it, shown as typed. Empty stays empty (callers show the node id).
 */
export function nodeTitle(i18n: I18n, type: string | undefined, label: string | undefined): string {
  const text = (label ?? '').trim();
  if (!text) return '';
  if (isCatalogKey(text)) return i18n.exists(text) ? i18n.t(text) : text;
  const def = type ? nodeDefinition(type) : undefined;
  if (def && i18n.getFixedT('en')(def.label) === text) return i18n.t(def.label);
  return text;
}

/** `nodeTitle` bound to the current language. */
export function useNodeTitle(): (type: string | undefined, label: string | undefined) => string {
  const { i18n } = useTranslation();
  // `i18n.language` makes a language switch give a new function, so memoized rows re-render.
  const language = i18n.language;
  return useCallback(
    (type: string | undefined, label: string | undefined) => nodeTitle(i18n, type, label),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language stands for i18n's state
    [i18n, language],
  );
}

/** What a select field shows for an option: its translated name, or the value itself (sizes, formats). */
export const optionText = (t: (key: string) => string, option: FieldOption): string =>
  option.label ? t(option.label) : option.value;

/**
 * A flow problem in the reader's language: a missing field is named by its translated label; other
 * problems keep the server's sentence (it quotes references and values).
 */
export function problemText(
  t: (key: string, values?: Record<string, unknown>) => string,
  problem: { field: string | null; code: string; message: string },
  nodeType: string | undefined,
): string {
  const meta = nodeType
    ? nodeDefinition(nodeType)?.fieldMeta.find((m) => m.name === problem.field)
    : undefined;
  if (problem.code === 'missing_field' && meta) return t('flow.field.required', { label: t(meta.label) });
  return problem.message;
}
