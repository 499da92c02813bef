import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { signOut } from '../session';

/** Logout: revoke on the server, clear what is stored, back to the login screen. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    navigate('/', { replace: true });
  }, [navigate]);
}
