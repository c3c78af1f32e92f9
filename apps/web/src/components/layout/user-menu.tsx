import { useNavigate } from '@tanstack/react-router';
import { LogOut, Shield, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { ProfileDialog } from '@/features/profile/profile-dialog';
import { useAppStore } from '@/stores/app-store';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppStore((s) => s.user);
  const [profileOpen, setProfileOpen] = useState(false);
  if (!user) return null;
  const initials =
    `${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`.toUpperCase() || user.email[0]?.toUpperCase();
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="rounded-full"
            aria-label={t('header.userMenu.label')}
          >
            <span className="flex size-8 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary">
              {initials}
            </span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel className="grid">
            <span className="truncate text-sm text-foreground">
              {`${user.firstName} ${user.lastName}`.trim() || user.email}
            </span>
            <span className="truncate font-normal">{user.email}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {user.user_role_id === 'admin' ? (
            <DropdownMenuItem onSelect={() => void navigate({ to: '/admin' })}>
              <Shield /> {t('header.userMenu.administration')}
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={() => setProfileOpen(true)}>
            <UserRound /> {t('header.userMenu.myProfile')}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate({ to: '/logout' })}>
            <LogOut /> {t('header.userMenu.logout')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ProfileDialog open={profileOpen} onOpenChange={setProfileOpen} />
    </>
  );
}
