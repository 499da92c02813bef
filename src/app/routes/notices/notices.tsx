import { NoticeDetailScreen, NoticeFormScreen, NoticeListScreen } from '@/features/notices/components/notice-screens';
import { useScreenFamily } from '../screen-family';

/** system/notice. */
export function NoticePage() {
  return <NoticeListScreen family={useScreenFamily('system.notice')} />;
}
/** system/notice/add and edit/:id. */
export function NoticeFormPage() {
  return <NoticeFormScreen family={useScreenFamily('system.notice.add', 'system.notice.edit')} />;
}
/** system/notice/detail/:id. */
export function NoticeDetailPage() {
  return <NoticeDetailScreen family={useScreenFamily('system.notice.detail')} />;
}
