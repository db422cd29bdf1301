import { StompVersion } from '../stomp/frame';
import { EncodedFrame } from './encoded-frame';
import { InMemoryBroker } from './in-memory-broker';
import { BrokerSubscriber, Subscription } from './message-broker';
import { OutgoingMessage, subscriptionPrefix } from './outgoing-message';

/** A subscriber that keeps what it is given. */
class Inbox implements BrokerSubscriber {
  readonly frames: EncodedFrame[] = [];
  constructor(
    readonly userName: string,
    readonly version: StompVersion = '1.2',
  ) {}

  deliver(subscription: Subscription, message: OutgoingMessage): void {
    this.frames.push(message.frameFor(subscription.prefix, this.version));
  }

  subscribe(broker: InMemoryBroker, destination: string, id = 'sub-0'): Subscription {
    const subscription: Subscription = {
      id,
      destination,
      ackMode: 'auto',
      subscriber: this,
      prefix: subscriptionPrefix(id, this.version),
    };
    broker.subscribe(subscription);
    return subscription;
  }
}

describe(InMemoryBroker.name, () => {
  let broker: InMemoryBroker;
  beforeEach(() => (broker = new InMemoryBroker()));

  it('should deliver a MESSAGE frame to every subscriber of the destination', () => {
    const [a, b, other] = [new Inbox('a'), new Inbox('b'), new Inbox('c')];
    a.subscribe(broker, '/topic/x');
    b.subscribe(broker, '/topic/x', 'sub-7');
    other.subscribe(broker, '/topic/y');
    broker.publish('/topic/x', '{"n":1}');
    expect(a.frames[0].bytes.toString()).toMatch(
      /^MESSAGE\nsubscription:sub-0\ndestination:\/topic\/x\nmessage-id:[\w-]+\ncontent-type:application\/json\ncontent-length:7\n\n\{"n":1\}\0$/,
    );
    expect(b.frames[0].bytes.toString()).toContain('subscription:sub-7\n');
    expect(other.frames).toHaveLength(0);
  });

  it('should encode the frame once for subscribers sharing a subscription id and version', () => {
    const inboxes = [new Inbox('a'), new Inbox('b'), new Inbox('c', '1.0')];
    inboxes.forEach((inbox) => inbox.subscribe(broker, '/topic/x'));
    broker.publish('/topic/x', 'hi');
    expect(inboxes[0].frames[0]).toBe(inboxes[1].frames[0]);
    expect(inboxes[2].frames[0]).not.toBe(inboxes[0].frames[0]);
  });

  it('should route user destinations to that user only, under the /user destination', () => {
    const [alice, bob] = [new Inbox('alice'), new Inbox('bob')];
    alice.subscribe(broker, '/user/topic/site/json');
    bob.subscribe(broker, '/user/topic/site/json');
    broker.publishToUser('alice', '/topic/site/json', '{}');
    expect(alice.frames[0].bytes.toString()).toContain('destination:/user/topic/site/json\n');
    expect(bob.frames).toHaveLength(0);
    broker.publish('/topic/site/json', '{}');
    expect(alice.frames).toHaveLength(1);
  });

  it('should stop delivering after unsubscribe', () => {
    const inbox = new Inbox('a');
    broker.unsubscribe(inbox.subscribe(broker, '/topic/x'));
    broker.publish('/topic/x', 'hi');
    expect(inbox.frames).toHaveLength(0);
  });

  it('should mark bodies that are not UTF-8 as binary', () => {
    const inbox = new Inbox('a');
    inbox.subscribe(broker, '/topic/x');
    broker.publish('/topic/x', Buffer.from([0xff, 0x00]), []);
    broker.publish('/topic/x', 'text', []);
    expect(inbox.frames.map((f) => f.binary)).toEqual([true, false]);
  });
});
