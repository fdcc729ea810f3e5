/**
 * A reference for `bench/http.ts` and `bench/reads.ts`: the same hello-world and JSON-RPC echo as bare
 * Express's (`support.ts`), answered by a NestJS application on `@nestjs/platform-express` with nothing of
 * the node's — no guard, interceptor, pipe or logger. As in bare Express, only the echo's route parses a body
 * (`express.json()`, as a Nest middleware on that route); Nest's global body parsers are off, as in the node.
 * The node is a NestJS application (the card asks for one), so its shares are read against this one's as
 * well as bare Express's. It is not a strict ceiling: the node's adapter leaves out work that this
 * application still does (Nest's request-hook entry, the ETag, `X-Powered-By`, Express's `res.json`).
 *
 *   node -r @swc-node/register bench/nest-hello-world.ts <port>
 */
import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Module,
  Post,
  RequestMethod,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';

@Controller()
class HelloController {
  @Get()
  hello(): { hello: string } {
    return { hello: 'world' };
  }

  @Post()
  @HttpCode(200)
  echo(@Body() body: { id?: unknown }): { jsonrpc: string; id: unknown; result: number } {
    return { jsonrpc: '2.0', id: body.id, result: 1 };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(express.json()).forRoutes({ path: '/', method: RequestMethod.POST });
  }
}

async function main(): Promise<void> {
  const app = await NestFactory.create(HelloModule, { logger: false, bodyParser: false });
  await app.listen(Number(process.argv[2]), '127.0.0.1');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
