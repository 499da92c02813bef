import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { permissionsAtom } from '@/lib/permissions';

/** True when the current role holds the permission code (spec §6: buttons lacking it are removed). */
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
