import { EditUserForm } from '@/features/my-info/components/edit-user-form';
import { MyInfoFrame } from './frame';

/** /myInfo/editUser. */
export function EditUserPage() {
  return (
    <MyInfoFrame>
      <EditUserForm />
    </MyInfoFrame>
  );
}
