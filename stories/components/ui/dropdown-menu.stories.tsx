import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { LogOut, User } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

const meta = {
  title: 'UI/DropdownMenu',
  component: DropdownMenu,
  args: { defaultOpen: false },
} satisfies Meta<typeof DropdownMenu>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The shape of the header's account menu: profile, role switch, language, sign out. */
export const AccountMenu: Story = {
  render: function Render(args) {
    const { t } = useTranslation(['ui', 'common']);
    const [role, setRole] = useState('teacher');
    const [lng, setLng] = useState('zh_cn');
    return (
      <DropdownMenu defaultOpen={args.defaultOpen} modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline">{t('demo.account')}</Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-56" align="start">
          <DropdownMenuLabel>{t('demo.account')}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuGroup>
            <DropdownMenuItem>
              <User aria-hidden />
              {t('demo.profile')}
            </DropdownMenuItem>
            <DropdownMenuSub>
              <DropdownMenuSubTrigger>{t('demo.switchRole')}</DropdownMenuSubTrigger>
              <DropdownMenuSubContent>
                <DropdownMenuRadioGroup value={role} onValueChange={setRole}>
                  <DropdownMenuRadioItem value="teacher">{t('demo.roleTeacher')}</DropdownMenuRadioItem>
                  <DropdownMenuRadioItem value="admin">{t('demo.roleAdmin')}</DropdownMenuRadioItem>
                </DropdownMenuRadioGroup>
              </DropdownMenuSubContent>
            </DropdownMenuSub>
          </DropdownMenuGroup>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>{t('demo.language')}</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={lng} onValueChange={setLng}>
            <DropdownMenuRadioItem value="zh_cn">{t('common:language.zh_cn')}</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="zh_tw">{t('common:language.zh_tw')}</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="en_us">{t('common:language.en_us')}</DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive">
            <LogOut aria-hidden />
            {t('demo.logout')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    );
  },
};

export const Open: Story = {
  ...AccountMenu,
  args: { defaultOpen: true },
};
