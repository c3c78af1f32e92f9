export {
  fieldKinds,
  isCatalogKey,
  nodeCategories,
  type FieldKind,
  type FieldMeta,
  type FieldOption,
  type NodeCategory,
  type NodeDefinition,
} from './fields';
export * from './graph';
export * from './values';
export * from './conditions';
export * from './catalog';
export * from './run-events';
export * from './templates';
