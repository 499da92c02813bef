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

// A curated set instead of lucide's full registry: importing every icon would cost ~600 kB.
const ICONS: Record<string, LucideIcon> = {
  activity: Activity,
  award: Award,
  'bar-chart': BarChart3,
  'bar-chart-3': BarChart3,
  'chart-bar': BarChart3,
  'chart-column': BarChart3,
  'book-marked': BookMarked,
  'book-open': BookOpen,
  building: Building2,
  'building-2': Building2,
  calendar: CalendarDays,
  'calendar-days': CalendarDays,
  'clipboard-check': ClipboardCheck,
  'clipboard-list': ClipboardList,
  cpu: Cpu,
  dumbbell: Dumbbell,
  flag: Flag,
  'graduation-cap': GraduationCap,
  'heart-pulse': HeartPulse,
  image: Image,
  images: Image,
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
};

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
  return ICONS[kebab(name)] ?? ICONS[name.toLowerCase()] ?? LayoutGrid;
}
