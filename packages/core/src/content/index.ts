export * from './rich-text/index.ts';
export * from './assets/index.ts';
export * from './items/index.ts';
export * from './variants/index.ts';
export * from './workflow/index.ts';
export * from './validation/index.ts';
export * from './history/index.ts';
