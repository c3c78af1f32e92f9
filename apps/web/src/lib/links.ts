import { apiUrl } from './api';

/** External links of the header, configurable per installation. */
export const FEEDBACK_URL: string =
  import.meta.env.VITE_FEEDBACK_URL || 'https://github.com/atelier-ai/atelier/issues/new';
export const DOCS_URL: string = import.meta.env.VITE_DOCS_URL || `${apiUrl}/docs`;
