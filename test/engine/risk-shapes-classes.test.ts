import { describe, expect, it } from 'vitest';
import { holdReason } from '../../src/engine/intelligence/analyser.js';
import { analyseNarration } from '../../src/engine/intelligence/rules-analyser.js';

const read = (narration: string) =>
  analyseNarration({ narration, systemPrompt: '', amount: 100_000, senderName: 'SANDBOX SENDER' });
/** Where the payment goes, and whether the explanation names the class: what a reviewer of the suspense item reads. */
const verdict = (narration: string, named: string) => {
  const r = read(narration);
  return [narration, holdReason(r) ?? 'CREDITED', r.explanation.some((line) => line.includes(named))];
};
/** Each narration held as AI_RISK_FLAG, with the class named in its explanation. */
const holds = (named: string, narrations: string[]) =>
  expect(narrations.map((n) => verdict(n, named))).toEqual(narrations.map((n) => [n, 'AI_RISK_FLAG', true]));
/** Each narration credited, the class not named. */
const credits = (named: string, narrations: string[]) =>
  expect(narrations.map((n) => verdict(n, named))).toEqual(narrations.map((n) => [n, 'CREDITED', false]));

describe('risk shapes by class: words in relation, so the same words used innocently are credited', () => {
  it('sextortion: a threat to publish pictures or videos, or send them to family, is held; photos and videos paid for are credited', () => {
    const named = 'sextortion';
    holds(named, [
      "so you don't post the pictures",
      'or I release your video',
      'pay before I send it to your family',
      'abeg make u no leak my nudes',
      'SO U NO GO UPLOAD D VIDEO ONLINE',
      'pay or we post ur pics for facebook',
      'make the video no reach my wife',
      'abeg no leak the chats',
    ]);
    // A photographer releases or sends a client's pictures once paid; a client asks them not to post yet.
    credits(named, [
      'pictures from the wedding, thanks',
      'balance before I release your wedding pictures',
      'post the pictures on instagram for the shop',
      'pls dont post the pictures yet',
      'WEDDING VIDEO COVERAGE BALANCE',
      'send the birthday video to your family group',
      'roof leak repair, pictures sent',
      "lamination so the pictures don't fade",
    ]);
  });

  it('money mules for betting or loan accounts: cashed out or received for another and sent back for a cut is held', () => {
    const named = 'money mule';
    holds(named, [
      'cash out and send back, keep 10%',
      'withdraw from my bet account and return',
      'use your account to receive and transfer, you get 5k',
      'CASHOUT MY SPORTYBET SEND AM BACK TAKE 5K',
      'help me withdraw the loan money and send it back, 2k for you',
      'receive 500k for me, remove your 10% send the balance back',
      'lend me ur aza make i collect 300k',
    ]);
    // A POS cash-out for family, a bet's own winnings and a POS agent's change are ordinary.
    credits(named, [
      'cash out from POS for mummy',
      'bet9ja winnings withdrawal',
      'withdraw cash and send to mama in village',
      'POS withdrawal, agent to send back the change',
      'withdraw from savings to pay back the loan',
    ]);
  });

  it('identity fraud tools: a faked or cloned NIN slip, BVN, SIM or ATM card, and accounts, BVN or NIN bought, sold or rented, are held', () => {
    const named = 'identity fraud tools';
    holds(named, [
      'fake NIN slip',
      'cloned SIM',
      'buy BVN account',
      'rent your account',
      'ATM CARD CLONING 2 pcs',
      'sell ur bvn 20k',
      'edited bank statement for visa',
      'pls make me fake drivers licence',
    ]);
    // What NIMC, a network or a bank does for the holder is lawful; so is buying a new SIM, and rent for a hall.
    credits(named, [
      'NIN registration fee at NIMC office',
      'SIM replacement at MTN office',
      'ATM card replacement fee',
      'buy SIM card for new phone',
      'BVN enrolment at the bank',
      'rent for the hall',
      'bank statement for visa',
      'NIN slip printing',
      'passport photograph editing',
    ]);
  });

  it('card-swap and ATM fraud proceeds: a victim\'s card swapped, or "card don enter", is held; a card replaced or a recharge card is not', () => {
    const named = 'card-swap or ATM fraud';
    holds(named, [
      'swapped card',
      'ATM swap money',
      'card don enter',
      'atm swap proceeds share',
      'd card we swap don enter',
      'we switch her card, ur share',
      'atm pin we shoulder surf, ur share',
    ]);
    credits(named, [
      'card replacement fee',
      'swap iphone 11 to 13 balance',
      'mtn recharge card don enter, thanks',
      'ATM withdrawal',
      'ATM card renewal fee',
      'car swap balance',
    ]);
  });

  it('violence for hire: paying hands to beat, rough up or "deal with" a person is held; a deal, a beat and boys quarters are not', () => {
    const named = 'violence for hire';
    holds(named, [
      'deal with him',
      'make dem beat am',
      'hire boys to rough up the landlord',
      'settle the thugs',
      'MONEY FOR THE BOYS TO DEAL WITH HER',
      'make the boys break his leg',
      'for area boys to beat up my neighbour',
      'mobilise boys to scatter the rally',
    ]);
    credits(named, [
      'land deal with him, balance',
      'beat production for my single',
      'boys quarters rent',
      'pay the boys for security at the event',
      'deal with it, thanks',
      'hire of canopy and chairs',
      'pay the boys to scatter the sand',
    ]);
  });

  it('bribes to pass goods or inspections: an official paid to clear, release or pass them is held; duty, an agent and a fee are credited', () => {
    const named = 'bribe to pass goods or an inspection';
    holds(named, [
      'for customs to release the container without duty',
      'settle the inspector so he passes the building',
      'for the officer to clear the goods',
      'roger customs make dem no check the container',
      'FOR NAFDAC OFFICER TO APPROVE THE PRODUCT WITHOUT LAB TEST',
      'settle building control people make dem pass the plan',
    ]);
    // Duty through the state, a clearing agent, the agency's own fee and the company's own clearing officer are lawful.
    credits(named, [
      'customs duty payment',
      'clearing agent fee to clear the goods, Apapa',
      'building inspection fee, LASBCA',
      'transport for our clearing officer to clear the goods',
      'import duty for customs to release the container',
      'NAFDAC product registration',
    ]);
  });

  it('advance fees dressed as grants, relief or palliatives are held; a grant repaid and palliatives distributed are credited', () => {
    const named = 'advance fee dressed as a grant';
    holds(named, [
      'processing fee for your CBN grant',
      'pay N5000 to receive the FG palliative',
      'registration fee for the relief fund',
      'TRADERMONI ACTIVATION FEE',
      'fee 2 collect ur covid relief money',
      'pls pay 3k b4 u get ur palliative',
      'form fee for FG empowerment grant',
      'registration for FG youth grant',
    ]);
    credits(named, [
      'CBN grant repayment',
      'palliative distribution transport',
      'loading fee for palliative distribution trucks',
      'consultant fee for tax relief filing',
      'processing fee for grant of probate',
      'grant writing fee',
      'relief materials donation',
      'TEF grant disbursement',
      'verification of grant beneficiaries, field staff',
    ]);
  });
});
