import type { EmbedSettings, UpdateEmbedBody } from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const embedKey = (chatbotId: string) => ['embed', chatbotId] as const;
const path = (chatbotId: string) => `/chatbots/${encodeURIComponent(chatbotId)}/embed`;

/** A chatbot's embed settings (made, off, on first read). */
export const useEmbed = (chatbotId: string) =>
  useQuery({
    queryKey: embedKey(chatbotId),
    queryFn: async () => (await api.get<{ embed: EmbedSettings }>(path(chatbotId))).embed,
  });
export const saveEmbed = async (chatbotId: string, body: UpdateEmbedBody) =>
  (await api.put<{ embed: EmbedSettings }>(path(chatbotId), body)).embed;
export const regenerateEmbedToken = async (chatbotId: string) =>
  (await api.post<{ embed: EmbedSettings }>(`${path(chatbotId)}/token`)).embed;

/** The snippets the guide shows, with the real addresses and token. */
export function embedSnippets(embed: EmbedSettings) {
  return {
    script: `<script src="${embed.script_url}" data-token="${embed.token}" async></script>`,
    iframe: `<iframe src="${embed.frame_url}" title="Chat" style="width: 380px; height: 600px; border: 0;" allow="clipboard-write"></iframe>`,
  };
}
