import { atom } from 'jotai';

/** Permission codes of the current role; the auth feature sets it from getUInfo, PermissionGate reads it. */
export const permissionsAtom = atom<ReadonlySet<string>>(new Set<string>());
