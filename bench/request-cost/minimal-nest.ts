import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { listenOnFreePort } from '../bench-server';
import { announce } from './announce';

/** The yardstick: Nest on Express with one `@Post` echoing its body, nothing else. Started by `run.ts`. */
@Controller('echo')
class EchoController {
  @Post()
  @HttpCode(200)
  echo(@Body() body: unknown): unknown {
    return body;
  }
}

@Module({ controllers: [EchoController] })
class MinimalModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(MinimalModule, { logger: false });
  announce({ url: await listenOnFreePort(app) });
}

void main();
