/** Password of every demo account (docs/product-rules.md#demo-data). */
export const DEMO_PASSWORD = 'Tiyu@2026';

export interface DemoAccount {
  account: string;
  password: string;
  description: string;
}

/** The demo sign-ins, printed by the server on start. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { account: 'district01', password: DEMO_PASSWORD, description: 'District bureau administrator (江宁区教育局, /admin)' },
  { account: 'school01', password: DEMO_PASSWORD, description: 'K12 school administrator (南京市江宁区实验学校, /k12)' },
  { account: 'teacher01', password: DEMO_PASSWORD, description: 'K12 PE teacher (南京市江宁区实验学校, /k12)' },
  { account: 'myclass01', password: DEMO_PASSWORD, description: 'K12 PE teacher who sees only the two classes they teach (data scope "my classes")' },
  { account: 'college01', password: DEMO_PASSWORD, description: 'University administrator (江苏体育科技大学, /gx)' },
  { account: 'multi0001', password: DEMO_PASSWORD, description: 'Two schools, two roles: K12 administrator + PE teacher, university PE teacher' },
  { account: 'school02', password: DEMO_PASSWORD, description: 'Second K12 school administrator (南京市江宁区东山小学, /k12, no tests yet)' },
  { account: 'district02', password: DEMO_PASSWORD, description: 'Second district administrator (江宁区教育局, /admin; departments, users)' },
  { account: 'jiaoyan01', password: DEMO_PASSWORD, description: 'District PE researcher (江宁区教育局, /admin; a read-only role: test plans and scores)' },
];
