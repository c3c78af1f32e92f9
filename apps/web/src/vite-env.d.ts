/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_URL?: string;
  readonly VITE_API_HOSTS?: string;
  readonly VITE_FEEDBACK_URL?: string;
  readonly VITE_DOCS_URL?: string;
}
