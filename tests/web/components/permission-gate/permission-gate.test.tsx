import { render, renderHook, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { PermissionGate, usePermission } from '@/components/permission-gate/permission-gate';
import { permissionsAtom } from '@/lib/permissions';

function withCodes(codes: string[]) {
  const store = createStore();
  store.set(permissionsAtom, new Set(codes));
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return { store, wrapper };
}

describe('PermissionGate', () => {
  it('hides its children without the code', () => {
    const { wrapper } = withCodes(['student:view']);
    render(
      <PermissionGate permission="student:delete">
        <button type="button">删除</button>
      </PermissionGate>,
      { wrapper },
    );
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('shows its children with the code, and the fallback without', () => {
    const { wrapper } = withCodes(['student:delete']);
    render(
      <>
        <PermissionGate permission="student:delete">
          <button type="button">删除</button>
        </PermissionGate>
        <PermissionGate permission="student:export" fallback={<span>无权限</span>}>
          <button type="button">导出</button>
        </PermissionGate>
      </>,
      { wrapper },
    );
    expect(screen.getByRole('button', { name: '删除' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
    expect(screen.getByText('无权限')).toBeInTheDocument();
  });

  it('usePermission follows the atom', () => {
    const { store, wrapper } = withCodes([]);
    const { result, rerender } = renderHook(() => usePermission('org:add'), { wrapper });
    expect(result.current).toBe(false);
    store.set(permissionsAtom, new Set(['org:add']));
    rerender();
    expect(result.current).toBe(true);
  });
});
