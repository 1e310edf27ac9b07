// Loaded before every test file: Nest and TypeORM need decorator metadata support.
import 'reflect-metadata';
