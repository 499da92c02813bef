import { AccessLogScreen, OnlineSessionScreen, OperationLogScreen, SignInLogScreen } from '@/features/platform/components/log-screens';
import { useScreenFamily } from '../screen-family';

/** system/signInLog. */
export function SignInLogPage() {
  return <SignInLogScreen family={useScreenFamily()} />;
}
/** system/operationLog. */
export function OperationLogPage() {
  return <OperationLogScreen family={useScreenFamily()} />;
}
/** system/onlineSession. */
export function OnlineSessionPage() {
  return <OnlineSessionScreen family={useScreenFamily()} />;
}
/** system/accessLog. */
export function AccessLogPage() {
  return <AccessLogScreen family={useScreenFamily()} />;
}
