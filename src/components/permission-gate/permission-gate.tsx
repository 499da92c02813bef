import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { canDo, pageAccess, type PageAccess } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { permissionsAtom } from '@/lib/permissions';

/** True when the current role holds the permission code (docs/product-rules.md#menus-and-permissions: buttons lacking it are removed). */
export function usePermission(code: string): boolean {
  return useAtomValue(permissionsAtom).has(code);
}

export interface PermissionGateProps {
  /** Permission code of a button menu entry. */
  permission: string;
  children: ReactNode;
  /** Shown instead when the code is missing; nothing by default. */
  fallback?: ReactNode;
}

/** Renders its children only for roles holding `permission`. */
export function PermissionGate({ permission, children, fallback = null }: PermissionGateProps) {
  return <>{usePermission(permission) ? children : fallback}</>;
}

/** A catalogue page's access for the current role: its paths and permission codes, and `can(action)`. */
export function usePageAccess(key: string): PageAccess & { can(action: ButtonAction | 'view'): boolean } {
  const held = useAtomValue(permissionsAtom);
  const access = pageAccess(key);
  return { ...access, can: (action) => canDo(held, key, action) };
}
