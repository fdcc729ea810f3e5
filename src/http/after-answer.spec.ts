import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { afterAnswer } from './after-answer';

describe('after the answer', () => {
  it('calls every callback once, in the order given, when the answer is sent and not before', async () => {
    const calls: string[] = [];
    const app = express();
    app.get('/', (_req, res) => {
      afterAnswer(res, () => calls.push('metric'));
      afterAnswer(res, () => calls.push('log'));
      calls.push('answer');
      res.send('ok');
    });
    await request(app).get('/').expect(200, 'ok');
    await request(app).get('/').expect(200, 'ok');
    expect(calls).toEqual(['answer', 'metric', 'log', 'answer', 'metric', 'log']);
  });
});
