import {
  Activity,
  Award,
  BarChart3,
  BookMarked,
  BookOpen,
  Building2,
  CalendarDays,
  ClipboardCheck,
  ClipboardList,
  Cpu,
  Dumbbell,
  Flag,
  GraduationCap,
  HeartPulse,
  Image,
  LayoutDashboard,
  LayoutGrid,
  Library,
  MapPin,
  Medal,
  Monitor,
  MonitorSmartphone,
  Network,
  NotebookPen,
  School,
  Settings,
  Shield,
  ShieldCheck,
  Target,
  Timer,
  Trophy,
  UserCog,
  UserRound,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { MenuIconName } from '@/domain/menus/customize';

// A curated set instead of lucide's full registry: importing every icon would cost ~600 kB. Its names are the domain's
// MENU_ICON_NAMES (what menu management offers and the server accepts); `satisfies` keeps the two lists equal.
const ICONS = {
  activity: Activity,
  award: Award,
  'bar-chart-3': BarChart3,
  'book-marked': BookMarked,
  'book-open': BookOpen,
  'building-2': Building2,
  'calendar-days': CalendarDays,
  'clipboard-check': ClipboardCheck,
  'clipboard-list': ClipboardList,
  cpu: Cpu,
  dumbbell: Dumbbell,
  flag: Flag,
  'graduation-cap': GraduationCap,
  'heart-pulse': HeartPulse,
  image: Image,
  'layout-dashboard': LayoutDashboard,
  'layout-grid': LayoutGrid,
  library: Library,
  'map-pin': MapPin,
  medal: Medal,
  monitor: Monitor,
  'monitor-smartphone': MonitorSmartphone,
  network: Network,
  'notebook-pen': NotebookPen,
  school: School,
  settings: Settings,
  shield: Shield,
  'shield-check': ShieldCheck,
  target: Target,
  timer: Timer,
  trophy: Trophy,
  'user-cog': UserCog,
  'user-round': UserRound,
  users: Users,
} satisfies Record<MenuIconName, LucideIcon>;

/** Other spellings the catalogue's icon names use for the same icons. */
const ALIASES: Record<string, MenuIconName> = {
  'bar-chart': 'bar-chart-3',
  'chart-bar': 'bar-chart-3',
  'chart-column': 'bar-chart-3',
  building: 'building-2',
  calendar: 'calendar-days',
  images: 'image',
};

const isIconName = (name: string): name is MenuIconName => Object.hasOwn(ICONS, name);

/** 'BuildingTwo', 'building-2', 'Building2' → 'building-2'. */
function kebab(name: string): string {
  return name
    .trim()
    .replace(/([a-z])([A-Z0-9])/g, '$1-$2')
    .replace(/[\s_]+/g, '-')
    .toLowerCase();
}

/** The lucide icon of a menu entry by name; a neutral grid icon when unknown. */
export function menuIcon(name: string | undefined): LucideIcon {
  if (!name) return LayoutGrid;
  for (const candidate of [kebab(name), name.toLowerCase()]) {
    const known = isIconName(candidate) ? candidate : ALIASES[candidate];
    if (known) return ICONS[known];
  }
  return LayoutGrid;
}
