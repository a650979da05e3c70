// Synthetic people for `seed-users`: Russian surnames, given names and patronymics in both genders,
// with surnames drawn by a Zipf-like weight (rank r weighs 1/(r+5)) so that a mask search such as
// `surname=Ива*` meets the skew of real data: thousands of Ивановы, a handful of Шубины.

const SURNAMES = (
  "Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков Алексеев Лебедев " +
  "Семёнов Егоров Павлов Козлов Степанов Николаев Орлов Андреев Макаров Никитин Захаров Зайцев Соловьёв Борисов " +
  "Яковлев Григорьев Романов Воробьёв Сергеев Кузьмин Фролов Александров Дмитриев Королёв Гусев Киселёв Ильин " +
  "Максимов Поляков Сорокин Виноградов Ковалёв Белов Медведев Антонов Тарасов Жуков Баранов Филиппов Комаров " +
  "Давыдов Беляев Герасимов Богданов Осипов Сидоров Матвеев Титов Марков Миронов Крылов Куликов Карпов Власов " +
  "Мельников Денисов Гаврилов Тихонов Казаков Афанасьев Данилов Савельев Тимофеев Фомин Чернов Абрамов Мартынов " +
  "Ефимов Федотов Щербаков Назаров Калинин Исаев Чернышёв Быков Маслов Родионов Коновалов Лазарев Воронин Климов " +
  "Филатов Пономарёв Голубев Кудрявцев Прохоров Наумов Потапов Журавлёв Овчинников Трофимов Леонов Соболев Ермаков " +
  "Колесников Гончаров Емельянов Никифоров Грачёв Котов Гришин Ефремов Архипов Громов Кириллов Малышев Панов " +
  "Моисеев Румянцев Акимов Кондратьев Бирюков Горбунов Анисимов Ерёмин Тихомиров Галкин Лукьянов Михеев Скворцов " +
  "Юдин Белоусов Нестеров Симонов Прокофьев Харитонов Князев Цветков Левин Воронцов Аксёнов Мальцев Логинов " +
  "Горшков Савин Краснов Майоров Демидов Елисеев Рыбаков Сафонов Плотников Хохлов Жданов Зуев Ершов Шубин " +
  "Вишневский Покровский Успенский Островский Соколовский"
).split(" ");

const MALE_NAMES = (
  "Александр Сергей Дмитрий Андрей Алексей Максим Евгений Иван Михаил Артём Николай Владимир Павел Роман Денис " +
  "Игорь Олег Виктор Константин Юрий Антон Кирилл Никита Илья Егор Вадим Владислав Георгий Степан Фёдор Тимур " +
  "Глеб Григорий Леонид Борис Василий Пётр Матвей Лев Ярослав"
).split(" ");

const FEMALE_NAMES = (
  "Елена Ольга Наталья Татьяна Ирина Анна Мария Светлана Екатерина Юлия Анастасия Марина Людмила Галина Дарья " +
  "Виктория Ксения Алина Полина Софья Валентина Надежда Вера Любовь Евгения Алёна Кристина Елизавета Александра " +
  "Варвара Ульяна Вероника Маргарита Яна Лариса Оксана Жанна Диана Милана Василиса"
).split(" ");

/** Male and female patronymic of one father's name: the endings are irregular enough to list. */
const PATRONYMICS = (
  "Александрович:Александровна Сергеевич:Сергеевна Дмитриевич:Дмитриевна Андреевич:Андреевна Алексеевич:Алексеевна " +
  "Максимович:Максимовна Евгеньевич:Евгеньевна Иванович:Ивановна Михайлович:Михайловна Николаевич:Николаевна " +
  "Владимирович:Владимировна Павлович:Павловна Викторович:Викторовна Юрьевич:Юрьевна Олегович:Олеговна " +
  "Игоревич:Игоревна Анатольевич:Анатольевна Васильевич:Васильевна Петрович:Петровна Геннадьевич:Геннадьевна " +
  "Борисович:Борисовна Валерьевич:Валерьевна Романович:Романовна Константинович:Константиновна Ильич:Ильинична " +
  "Никитич:Никитична Фёдорович:Фёдоровна Григорьевич:Григорьевна Степанович:Степановна Леонидович:Леонидовна"
)
  .split(" ")
  .map((pair) => pair.split(":") as [string, string]);

const MAIL_DOMAINS = ["mail.ru", "yandex.ru", "gmail.com", "rambler.ru", "bk.ru", "list.ru"];

const LATIN: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m",
  н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch",
  ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
};

const latin = (s: string): string => [...s.toLowerCase()].map((c) => LATIN[c] ?? c).join("");

/** -ов/-ев/-ин take -а, -ский becomes -ская. */
function femaleSurname(male: string): string {
  return male.endsWith("ий") ? `${male.slice(0, -2)}ая` : `${male}а`;
}

const SURNAME_CUMULATIVE: number[] = [];
SURNAMES.forEach((_s, rank) => SURNAME_CUMULATIVE.push((SURNAME_CUMULATIVE.at(-1) ?? 0) + 1 / (rank + 5)));

function pickSurname(random: () => number): string {
  const x = random() * SURNAME_CUMULATIVE.at(-1)!;
  let lo = 0;
  let hi = SURNAME_CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (SURNAME_CUMULATIVE[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return SURNAMES[lo]!;
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!;

export type TSyntheticPerson = { family_name: string; given_name: string; middle_name: string; phone: string; email: string };

/**
 * One person. `serial` (a number of up to 9 digits) makes the phone 79XXXXXXXXX and the e-mail's
 * local part unique, so distinct serials never collide with each other.
 */
export function syntheticPerson(serial: number, random: () => number = Math.random): TSyntheticPerson {
  const female = random() < 0.5;
  const surname = pickSurname(random);
  const given = pick(female ? FEMALE_NAMES : MALE_NAMES, random);
  const [maleMiddle, femaleMiddle] = pick(PATRONYMICS, random);
  const digits = String(serial).padStart(9, "0");
  return {
    family_name: female ? femaleSurname(surname) : surname,
    given_name: given,
    middle_name: female ? femaleMiddle : maleMiddle,
    phone: `79${digits}`,
    email: `${latin(given)}.${latin(surname)}.${digits}@${pick(MAIL_DOMAINS, random)}`,
  };
}

/** Serials a phone block of `count` numbers starting at `first` covers, as index values (lo, hi inclusive). */
export function phoneRange(first: number, count: number): { lo: string; hi: string } {
  return { lo: `79${String(first).padStart(9, "0")}`, hi: `79${String(first + count - 1).padStart(9, "0")}` };
}

/** Largest serial a phone block may use (9 digits after 79). */
export const MAX_SERIAL = 999_999_999;
