import { assertNever } from '@lectern/errors';
/** The tree a filter or booster parses to (grammar.ts); every node carries its 1-based column. */

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | 'and' | 'or';

export type QueryNode =
  | { readonly kind: 'number'; readonly value: number; readonly column: number }
  | { readonly kind: 'string'; readonly value: string; readonly column: number }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly column: number }
  | { readonly kind: 'property'; readonly name: string; readonly column: number }
  | { readonly kind: 'set'; readonly items: readonly QueryNode[]; readonly column: number }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly QueryNode[]; readonly column: number }
  | { readonly kind: 'not'; readonly operand: QueryNode; readonly column: number }
  | { readonly kind: 'negate'; readonly operand: QueryNode; readonly column: number }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly left: QueryNode;
      readonly right: QueryNode;
      readonly column: number;
    }
  | {
      readonly kind: 'in';
      readonly isNegated: boolean;
      readonly needle: QueryNode;
      readonly haystack: QueryNode;
      readonly column: number;
    }
  | {
      readonly kind: 'if';
      readonly condition: QueryNode;
      readonly then: QueryNode;
      readonly otherwise: QueryNode;
      readonly column: number;
    };

/** The direct children of a node, in the order they were written. */
export function childrenOf(node: QueryNode): readonly QueryNode[] {
  switch (node.kind) {
    case 'set':
      return node.items;
    case 'call':
      return node.args;
    case 'not':
    case 'negate':
      return [node.operand];
    case 'in':
      return [node.needle, node.haystack];
    case 'if':
      return [node.condition, node.then, node.otherwise];
    case 'binary':
      return [node.left, node.right];
    case 'number':
    case 'string':
    case 'boolean':
    case 'property':
      return [];
    default:
      return assertNever(node, 'query node');
  }
}
