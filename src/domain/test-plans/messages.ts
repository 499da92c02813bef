/** i18n keys (namespace `testPlan`) of the test-plan rules the server enforces beyond the form (issue 3 §2, spec §4). */
export const PLAN_MSG = {
  ended: 'testPlan:error.ended',
  endedNoEdit: 'testPlan:error.endedNoEdit',
  alreadyEnded: 'testPlan:error.alreadyEnded',
  inProgressNoDelete: 'testPlan:error.inProgressNoDelete',
  importRunning: 'testPlan:error.importRunning',
  syncRunning: 'testPlan:error.syncRunning',
  jobRunningNoDelete: 'testPlan:error.jobRunningNoDelete',
  jobRunningNoEdit: 'testPlan:error.jobRunningNoEdit',
  standardLocked: 'testPlan:error.standardLocked',
  schoolYearNotFound: 'testPlan:error.schoolYearNotFound',
  semesterNotFound: 'testPlan:error.semesterNotFound',
  scopeNotFound: 'testPlan:error.scopeNotFound',
  scopeTypeNotAllowed: 'testPlan:error.scopeTypeNotAllowed',
  schoolRequired: 'testPlan:error.schoolRequired',
  schoolNotFound: 'testPlan:error.schoolNotFound',
  gradeItemsInvalid: 'testPlan:error.gradeItemsInvalid',
} as const;
export type PlanMessageKey = (typeof PLAN_MSG)[keyof typeof PLAN_MSG];
