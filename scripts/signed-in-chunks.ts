/**
 * The signed-in shell in one chunk, without touching what the login page loads (docs/decisions/012-lean-first-screen.md).
 *
 * Left to itself the bundler cut the shell into ~60 chunks, most under 2 kB. Over HTTP/1.1 a browser opens six
 * connections to a host, so on the first visit those requests queued behind each other, and each carried ≈ 1 kB of
 * response headers (docs/performance.md, first load).
 *
 * The groups are defined on the module graph once it is known (buildEnd). The pages are what src/app/router.tsx
 * imports lazily: the signed-in routes (src/app/routes/signed-in.tsx), the wall, the parents' report, the error page.
 * - `login`: every module the entry reaches, statically or by a dynamic import, without entering a page: the login
 *   page's own lazy parts (the API client, the sign-in code, the login schema, the toasts). None of these is grouped:
 *   a group holding one of them would be loaded by the login page (a shared vendor and kit group did that: 137 → 660 kB).
 * - `shell`: what the signed-in routes import statically, minus `login` and minus what another page also reaches.
 * - `pages`: what the signed-in routes import statically and another page (the wall, the report) also reaches.
 * The screens (lazy below the signed-in routes) keep the automatic chunks.
 *
 * `includeDependenciesRecursively: false`: a group must not pull in its modules' dependencies, which may be `login`
 * modules (the API client). `login` is closed under imports, so a grouped chunk may import a login chunk but never the
 * other way round.
 */
import type { Plugin, Rolldown } from 'vite';
import { reach } from './module-graph.js';

/** The routes known at start (the login screen, the wall, the parents' report) import the pages from here. */
const ROUTER = /[\\/]src[\\/]app[\\/]router\.tsx$/;
/** The route module every signed-in screen hangs below. */
const SIGNED_IN = /[\\/]src[\\/]app[\\/]routes[\\/]signed-in\.tsx$/;

/** `import * as Name from "spec"` lines of a package's namespace barrel (radix-ui's index). */
const NAMESPACE_IMPORT = /import \* as (\w+) from ["']([^"']+)["']/g;
/** The names a module takes from `spec`: `import { A, B as C } from 'spec'`. */
const namedImports = (code: string, spec: string) =>
  [...code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']`, 'g'))].flatMap((m) =>
    m[1].split(',').map((part) => part.trim().split(/\s+as\s+/)[0]).filter(Boolean),
  );

export function signedInChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  const shell = new Set<string>();
  const shared = new Set<string>();
  const plugin: Plugin = {
    name: 'tiyu-signed-in-chunks',
    apply: 'build',
    buildEnd() {
      shell.clear();
      shared.clear();
      const ids = [...this.getModuleIds()];
      const info = (id: string) => this.getModuleInfo(id);
      const signedIn = ids.find((id) => SIGNED_IN.test(id));
      const router = ids.find((id) => ROUTER.test(id));
      if (!signedIn || !router) return;
      const pages = new Set(info(router)?.dynamicallyImportedIds ?? []);

      // A namespace barrel (radix-ui: `import * as Dialog from "@radix-ui/react-dialog"` … `export { Dialog, … }`)
      // imports every package of the family, but the bundle keeps only those its importers name: follow only those,
      // or the login page's toasts would seem to reach every Radix primitive.
      const barrels = new Map<string, { spec: string; targets: Map<string, string> }>();
      for (const id of ids) {
        const m = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
        const code = info(id)?.code ?? '';
        const lines = [...code.matchAll(NAMESPACE_IMPORT)];
        if (!m || lines.length < 5) continue;
        const targets = new Map<string, string>();
        for (const [, name, spec] of lines) {
          const target = info(id)?.importedIds.find((t) => t.includes(`node_modules/${spec}/`) || t.includes(`node_modules\\${spec}\\`));
          if (target) targets.set(name, target);
        }
        barrels.set(id, { spec: m[1].replace(/\\/g, '/'), targets });
      }
      const staticImports = (id: string): string[] => {
        const code = info(id)?.code ?? '';
        return (info(id)?.importedIds ?? []).flatMap((dep) => {
          const barrel = barrels.get(dep);
          return barrel && !barrels.has(id) ? namedImports(code, barrel.spec).flatMap((name) => barrel.targets.get(name) ?? []) : [dep];
        });
      };
      const allImports = (id: string) => [...staticImports(id), ...(info(id)?.dynamicallyImportedIds ?? [])];

      const login = reach(ids.filter((id) => info(id)?.isEntry), allImports, pages);
      const others = reach([...pages].filter((p) => p !== signedIn), allImports);
      for (const id of reach([signedIn], staticImports)) {
        if (!login.has(id) && !barrels.has(id)) (others.has(id) ? shared : shell).add(id);
      }
    },
  };
  return {
    plugin,
    groups: [
      { name: 'shell', test: (id) => shell.has(id), includeDependenciesRecursively: false },
      { name: 'pages', test: (id) => shared.has(id), includeDependenciesRecursively: false },
    ],
  };
}
