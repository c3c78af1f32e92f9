/** The languages of the interface and of a user's preference. */
export const languages = ['en', 'fr'] as const;
export type Language = (typeof languages)[number];
