import { count, desc, eq, or } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { users } from "#app/db/schema/core.ts";
import { pageWindow } from "#app/utils/misc.ts";
import { likeContains } from "#app/utils/sql.server.ts";
import { ACCOUNTS_PAGE_SIZE, type AccountsQuery } from "#app/modules/credits/schemas.ts";

const accountColumns = {
  id: users.id,
  fullName: users.fullName,
  email: users.email,
  role: users.role,
  balance: users.creditBalance,
  disabledAt: users.disabledAt,
  createdAt: users.createdAt,
};

/** The admin's accounts list: search by name or e-mail, newest first, one page; a page past the end shows the last one. */
export async function searchAccounts(query: AccountsQuery) {
  const where = query.q ? or(likeContains(users.fullName, query.q), likeContains(users.email, query.q)) : undefined;
  const [{ total }] = await getDb().select({ total: count() }).from(users).where(where).all();
  const { page, totalPages, offset } = pageWindow(total, query.page, ACCOUNTS_PAGE_SIZE);
  const rows = await getDb()
    .select(accountColumns)
    .from(users)
    .where(where)
    .orderBy(desc(users.id))
    .limit(ACCOUNTS_PAGE_SIZE)
    .offset(offset)
    .all();
  return { rows, total, page, totalPages };
}

/** One account with its balance, for the admin. */
export async function getAccount(userId: number) {
  return await getDb().select(accountColumns).from(users).where(eq(users.id, userId)).get();
}
