import { useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import type { MenuNode } from '@/domain/auth/types';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { menuIcon } from './menu-icon';
import { menuLabel } from './menu-label';

export interface SideMenuProps {
  /** Pages of the present role (buttons are not shown). */
  tree: readonly MenuNode[];
  /** Icons only; groups open as fly-outs. */
  collapsed?: boolean;
  /** Called after a link is followed (closes the mobile drawer). */
  onNavigate?(): void;
}

function isActive(node: MenuNode, pathname: string): boolean {
  if (node.menuPath && (pathname === node.menuPath || pathname.startsWith(node.menuPath + '/'))) return true;
  return node.children.some((c) => isActive(c, pathname));
}

const linkClass = (active: boolean, depth: number) =>
  cn(
    'group/item flex h-9 w-full items-center gap-2.5 rounded-md px-2.5 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-sidebar-ring',
    depth > 0 && 'h-8 text-[13px]',
    active
      ? 'bg-sidebar-primary font-medium text-sidebar-primary-foreground shadow-sm'
      : 'text-sidebar-foreground/85 hover:bg-sidebar-accent hover:text-sidebar-accent-foreground',
  );

/** The collapsible side menu of the present role's pages (docs/product-rules.md#screens-and-routes, #accounts-in-use). */
export function SideMenu({ tree, collapsed = false, onNavigate }: SideMenuProps) {
  const { t } = useTranslation(['layout', 'menus']);
  const { pathname } = useLocation();
  // Groups the person opened or closed; others follow the active page.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const isOpen = (node: MenuNode) => toggled[node.menuId] ?? isActive(node, pathname);

  const renderNode = (node: MenuNode, depth: number) => {
    const label = menuLabel(t, node);
    const Icon = menuIcon(node.icon);
    const pages = node.children;
    if (!pages.length) {
      return (
        <li key={node.menuId}>
          <NavLink
            to={node.menuPath || node.defaultPath}
            onClick={onNavigate}
            data-testid={`menu-item-${node.menuId}`}
            className={({ isActive: active }) => linkClass(active, depth)}
            style={depth > 0 ? { paddingLeft: `${0.625 + depth * 1.25}rem` } : undefined}
          >
            {depth === 0 ? <Icon aria-hidden className="size-4 shrink-0 opacity-90" /> : null}
            <span className="truncate">{label}</span>
          </NavLink>
        </li>
      );
    }
    const open = isOpen(node);
    const active = isActive(node, pathname);
    return (
      <li key={node.menuId}>
        <button
          type="button"
          aria-expanded={open}
          data-testid={`menu-group-${node.menuId}`}
          onClick={() => setToggled((s) => ({ ...s, [node.menuId]: !open }))}
          className={cn(
            'flex h-9 w-full items-center gap-2.5 rounded-md px-2.5 text-sm transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring',
            depth > 0 && 'h-8 text-[13px]',
            active ? 'font-medium text-sidebar-accent-foreground' : 'text-sidebar-foreground/85',
          )}
          style={depth > 0 ? { paddingLeft: `${0.625 + depth * 1.25}rem` } : undefined}
        >
          {depth === 0 ? <Icon aria-hidden className="size-4 shrink-0 opacity-90" /> : null}
          <span className="flex-1 truncate text-left">{label}</span>
          <ChevronDown aria-hidden className={cn('size-4 shrink-0 opacity-60 transition-transform', open && 'rotate-180')} />
        </button>
        {open && <ul className="mt-0.5 grid gap-0.5">{pages.map((c) => renderNode(c, depth + 1))}</ul>}
      </li>
    );
  };

  const leaves = (node: MenuNode): MenuNode[] => (node.children.length ? node.children.flatMap(leaves) : [node]);

  const renderCollapsed = (node: MenuNode) => {
    const label = menuLabel(t, node);
    const Icon = menuIcon(node.icon);
    const active = isActive(node, pathname);
    const iconClass = cn(
      'flex size-10 items-center justify-center rounded-md transition-colors outline-none focus-visible:ring-2 focus-visible:ring-sidebar-ring',
      active ? 'bg-sidebar-primary text-sidebar-primary-foreground' : 'text-sidebar-foreground/85 hover:bg-sidebar-accent hover:text-sidebar-accent-foreground',
    );
    if (!node.children.length) {
      return (
        <li key={node.menuId}>
          <Tooltip content={label} side="right">
            <NavLink to={node.menuPath || node.defaultPath} onClick={onNavigate} aria-label={label} data-testid={`menu-item-${node.menuId}`} className={iconClass}>
              <Icon aria-hidden className="size-[18px]" />
            </NavLink>
          </Tooltip>
        </li>
      );
    }
    return (
      <li key={node.menuId}>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <button type="button" aria-label={label} data-testid={`menu-group-${node.menuId}`} className={iconClass}>
              <Icon aria-hidden className="size-[18px]" />
            </button>
          </DropdownMenuTrigger>
          <DropdownMenuContent side="right" align="start" className="min-w-48">
            <DropdownMenuLabel>{label}</DropdownMenuLabel>
            {leaves(node).map((leaf) => (
              <DropdownMenuItem key={leaf.menuId} asChild>
                <NavLink to={leaf.menuPath} onClick={onNavigate} className={({ isActive: a }) => cn(a && 'font-medium text-primary')}>
                  {menuLabel(t, leaf)}
                </NavLink>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </li>
    );
  };

  return (
    <nav aria-label={t('layout:sideMenu')} data-testid="side-menu" className="min-h-0 flex-1 overflow-y-auto px-2 py-3">
      {tree.length === 0 ? (
        <p className={cn('px-2.5 py-2 text-xs text-sidebar-foreground/60', collapsed && 'sr-only')}>{t('layout:noMenu')}</p>
      ) : (
        <ul className={cn('grid gap-0.5', collapsed && 'justify-items-center gap-1')}>
          {tree.map((n) => (collapsed ? renderCollapsed(n) : renderNode(n, 0)))}
        </ul>
      )}
    </nav>
  );
}
