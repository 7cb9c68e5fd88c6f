import { demoPurge } from "./jobs/demo-purge.ts";
import { housekeeping } from "./jobs/housekeeping.ts";
import { supportMail } from "./jobs/support-mail.ts";
import { smsReconcile } from "./jobs/sms-reconcile.ts";
import { smsSchedule } from "./jobs/sms-schedule.ts";
import { smsScheduleReconcile } from "./jobs/sms-schedule-reconcile.ts";
import { smsSend } from "./jobs/sms-send.ts";
import { groupSend } from "./jobs/group-send.ts";
import type { JobDefinition } from "./job-definition.ts";

export const jobDefinitions: JobDefinition[] = [
  housekeeping,
  supportMail,
  smsSend,
  smsReconcile,
  smsSchedule,
  smsScheduleReconcile,
  groupSend,
  demoPurge,
];
