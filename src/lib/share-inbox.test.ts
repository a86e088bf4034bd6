import { describe, expect, it } from 'vitest';
import { shareInbox, sharedText, type SharedEntry } from './share-inbox';

const entry = (over: Partial<SharedEntry>): SharedEntry => ({ id: 'a', title: '', text: '', url: '', files: [], receivedAt: Date.now(), ...over });

describe('sharedText', () => {
  it('joins title, text and link, the link once', () => {
    expect(sharedText(entry({ title: 'Page', text: 'Look', url: 'https://x.example/' }))).toBe('Page\n\nLook\n\nhttps://x.example/');
    expect(sharedText(entry({ text: 'Look https://x.example/', url: 'https://x.example/' }))).toBe('Look https://x.example/');
    expect(sharedText(entry({}))).toBe('');
  });
});

describe('shareInbox', () => {
  it('keeps an entry until both its text and its files were taken, and drops a day-old one', async () => {
    const file = new File(['bytes'], 'photo.jpg', { type: 'image/jpeg' });
    await shareInbox.put(entry({ id: 'old', text: 'forgotten', receivedAt: Date.now() - 25 * 60 * 60 * 1000 }));
    await shareInbox.put(entry({ id: 'both', text: 'caption', files: [file] }));
    expect(await shareInbox.get('old')).toBeUndefined();

    await shareInbox.take('both', 'files');
    expect(await shareInbox.get('both')).toMatchObject({ text: 'caption', files: [] });
    await shareInbox.take('both', 'text');
    expect(await shareInbox.get('both')).toBeUndefined();
    await shareInbox.take('missing', 'text');
  });
});
