import { MenuManagementScreen } from '@/features/menus/components/menu-management-screen';

/** /menuManagement: the platform operators' menu editor (docs/product-rules.md#menu-management). */
export function MenuManagementPage() {
  return <MenuManagementScreen />;
}
