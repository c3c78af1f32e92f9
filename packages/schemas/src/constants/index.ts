/**
 * The closed sets of values the whole platform shares, as plain arrays and their unions: the zod
 * schemas build their enums from them, the db types its columns with them, and the web app imports
 * them from `@atelier/schemas/constants`. No zod here, nor any import from outside this folder, so
 * the web app's first chunks stay small. Several modules, so that a bundle takes only those it uses
 * (the web app's first chunk takes the roles only).
 */
export * from './roles';
export * from './languages';
export * from './chatbots';
export * from './models';
export * from './chat';
export * from './knowledge';
export * from './analytics';
export * from './embed';
export * from './users';
