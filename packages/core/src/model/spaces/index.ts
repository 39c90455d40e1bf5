export {
  addSpace,
  contentItemKind,
  deleteSpace,
  getSpace,
  listSpaces,
  modifySpace,
  spaceJson,
  type SpaceBody,
  type SpaceRecord,
} from './spaces.ts';
