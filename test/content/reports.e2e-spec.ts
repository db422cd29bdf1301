import { getConnectionToken } from '@nestjs/mongoose';
import * as ExcelJS from 'exceljs';
import { Connection, Types } from 'mongoose';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';

const binaryParser = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('report export (e2e)', () => {
  let t: TestApp;
  let admin: string;
  const report = (path: string, token = admin) =>
    t.http.get(`/api/v1/reports/${path}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    const db = t.app.get<Connection>(getConnectionToken());
    // The customer report must list exactly these two: the default USER goes (the last test makes its own).
    await db.collection('users').deleteOne({ username: 'test-user' });
    await db.collection('users').insertMany([
      {
        username: 'alice',
        email: 'alice@example.com',
        role: 'USER',
        passwordHash: '$argon2id$secret',
        verified: true,
        disabled: false,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      },
      {
        username: '=cmd|calc',
        email: 'mallory@example.com',
        role: 'USER',
        passwordHash: '$argon2id$secret',
        verified: false,
        disabled: false,
        createdAt: new Date('2026-02-01T00:00:00Z'),
      },
    ]);
    await db.collection('orders').insertOne({
      _id: new Types.ObjectId('0123456789abcdef01234567'),
      status: 'PAID',
      embeddedBuyer: { userId: 'b1', username: 'alice' },
      embeddedVendor: { sellerId: 's1', name: 'Nursery' },
      currencyCode: 'EUR',
      total: 1990,
      createdAt: new Date('2026-03-01T00:00:00Z'),
    });
    await t.callBean('jobsManagementServiceImpl', 'startJob', ['import, "quoted"', 5], { token: admin }).expect(200);
  });
  afterAll(() => t.stop());

  it('should export customers as CSV without secrets, defusing formulas', async () => {
    const res = await report('customers')
      .expect(200)
      .expect('Content-Type', /text\/csv/)
      .expect('Content-Disposition', 'attachment; filename="customers.csv"');
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,username,email,verified,disabled,createdAt');
    expect(lines.slice(1).map((line) => line.split(',').slice(1, 3).join(','))).toEqual([
      'alice,alice@example.com',
      "'=cmd|calc,mallory@example.com",
    ]);
    expect(res.text).not.toContain('argon2');
  });

  it('should export orders and jobs, quoting where needed, filtered by date', async () => {
    const orders = (await report('orders?from=2026-02-15').expect(200)).text.split('\r\n');
    expect(orders[1]).toBe('0123456789abcdef01234567,PAID,b1,alice,s1,EUR,1990,,,,2026-03-01T00:00:00.000Z,');
    expect((await report('orders?to=2026-02-15').expect(200)).text.trimEnd().split('\r\n')).toHaveLength(1);
    const jobs = (await report('jobs').expect(200)).text;
    expect(jobs).toContain('"import, ""quoted"""');
  });

  it('should export XLSX that a spreadsheet reader opens', async () => {
    const res = await report('customers?format=xlsx')
      .buffer(true)
      .parse(binaryParser)
      .expect(200)
      .expect('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Uint8Array.from(res.body as Buffer).buffer);
    const sheet = workbook.getWorksheet('customers')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'id', 'username', 'email', 'verified', 'disabled', 'createdAt']);
    expect(sheet.getRow(2).getCell(2).value).toBe('alice');
    expect(sheet.getRow(2).getCell(4).value).toBe(true);
    expect(sheet.getRow(2).getCell(6).value).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(sheet.rowCount).toBe(3);
  });

  it('should refuse unknown reports, formats and dates, and non-admins', async () => {
    await report('passwords').expect(404);
    await report('constructor').expect(404);
    await report('jobs?format=pdf').expect(400);
    await report('jobs?from=yesterday').expect(400);
    await report('jobs', (await t.createUser({ username: 'reader', role: Role.USER })).token).expect(403);
    await t.http.get('/api/v1/reports/jobs').expect(401);
  });
});
