import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { checkState, toggleNode, type TreeNode } from './tree';

export interface PermissionTreeProps {
  /** Groups → pages → buttons (e.g. from the catalogue of a family). */
  tree: readonly TreeNode[];
  /** Checked node ids. */
  value: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  /** Ids the editor may not grant (an administrator cannot grant what it does not hold). */
  disabled?: ReadonlySet<string>;
  'aria-label'?: string;
}

/**
 * The permission editor of a role: a tree of checkboxes where checking a page checks its buttons, a parent with some
 * children checked is half-checked, and every box is reachable with Tab and toggled with Space.
 */
export function PermissionTree({ tree, value, onChange, disabled, 'aria-label': ariaLabel }: PermissionTreeProps) {
  return (
    <ul role="tree" aria-label={ariaLabel} className="grid gap-1 text-sm">
      {tree.map((node) => (
        <PermissionNode key={node.id} node={node} value={value} onChange={onChange} disabled={disabled} level={1} />
      ))}
    </ul>
  );
}

function PermissionNode({
  node,
  value,
  onChange,
  disabled,
  level,
}: {
  node: TreeNode;
  value: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  disabled?: ReadonlySet<string>;
  level: number;
}) {
  const id = useId();
  const state = checkState(node, value);
  const kids = node.children ?? [];
  // Buttons (leaves under a page) sit in a row; groups and pages stack.
  const leavesOnly = kids.length > 0 && kids.every((k) => !k.children?.length);
  const off = node.disabled || disabled?.has(node.id);
  return (
    <li role="treeitem" aria-level={level} aria-checked={state === 'indeterminate' ? 'mixed' : state === 'checked'} aria-expanded={kids.length ? true : undefined}>
      <div className="flex items-center gap-2 py-0.5" style={{ paddingLeft: (level - 1) * 20 }}>
        <Checkbox
          id={id}
          checked={state === 'indeterminate' ? 'indeterminate' : state === 'checked'}
          disabled={off}
          data-testid={`perm-${node.id}`}
          onCheckedChange={() => onChange(toggleNode(node, value, state !== 'checked'))}
        />
        <Label htmlFor={id} className="font-normal">
          {node.label}
        </Label>
      </div>
      {kids.length ? (
        <ul role="group" className={leavesOnly ? 'flex flex-wrap gap-x-4' : 'grid gap-1'} style={leavesOnly ? { paddingLeft: level * 20 } : undefined}>
          {kids.map((k) =>
            leavesOnly ? (
              <PermissionLeaf key={k.id} node={k} value={value} onChange={onChange} disabled={disabled} level={level + 1} />
            ) : (
              <PermissionNode key={k.id} node={k} value={value} onChange={onChange} disabled={disabled} level={level + 1} />
            ),
          )}
        </ul>
      ) : null}
    </li>
  );
}

function PermissionLeaf({ node, value, onChange, disabled, level }: { node: TreeNode; value: ReadonlySet<string>; onChange(next: Set<string>): void; disabled?: ReadonlySet<string>; level: number }) {
  const id = useId();
  const on = value.has(node.id);
  return (
    <li role="treeitem" aria-level={level} aria-checked={on} className="flex items-center gap-2 py-0.5">
      <Checkbox
        id={id}
        checked={on}
        disabled={node.disabled || disabled?.has(node.id)}
        data-testid={`perm-${node.id}`}
        onCheckedChange={() => onChange(toggleNode(node, value, !on))}
      />
      <Label htmlFor={id} className="font-normal">
        {node.label}
      </Label>
    </li>
  );
}
